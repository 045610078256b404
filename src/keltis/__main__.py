import sys

from keltis.cli import main

sys.exit(main())
