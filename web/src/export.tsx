// A player's data to keep: the settings page's "Download my data" (GET /api/me/export, one
// JSON file of the account, its ratings, matches with their records and chat lines) and the
// replay page's "Download record" of a finished match (GET /api/matches/{id}/record, the
// record `keltis replay` reads). docs/server.md, "Your data".
import { useState } from "preact/hooks";
import { ApiError, request } from "./api";
import { useAnnounce, useT } from "./context";

/** Hands `text` to the browser as a file called `name` to save. */
function save(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** The settings page's panel: what the file holds, and the button that downloads it (asked
 * for through the API, so that a refusal — too often this hour — is shown in words). */
export function ExportData() {
  const t = useT();
  const announce = useAnnounce();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      const data = await request<unknown>("GET", "/api/me/export");
      const day = new Date().toISOString().slice(0, 10);
      save(`keltis-data-${day}.json`, JSON.stringify(data, null, 1));
      announce(t.t("web.settings.export_done"));
    } catch (e) {
      setError(e instanceof ApiError && e.message ? e.message : t.t("web.offline"));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="panel" aria-labelledby="set-data" data-testid="settings-data">
      <h2 id="set-data">{t.t("web.settings.data")}</h2>
      <p>{t.t("web.settings.export_detail")}</p>
      {error && <p class="error" role="alert">{error}</p>}
      <button type="button" data-testid="export-data" disabled={busy} onClick={() => void download()}>
        {t.t("web.settings.export")}
      </button>
    </section>
  );
}

/** The replay page's link to a finished match's record, as a file (its name holds the
 * match's id; the server answers it to anyone once the match is over, as it does the replay). */
export function DownloadRecord({ match }: { match: string }) {
  const t = useT();
  return (
    <a class="button" href={`/api/matches/${encodeURIComponent(match)}/record`} download={`keltis-${match}.json`}
      data-testid="download-record">
      {t.t("web.replay.download")}
    </a>
  );
}
