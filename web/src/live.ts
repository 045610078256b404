// The live WebSocket (docs/server.md, "Live play"): hello → snapshot, then steps. It connects
// again by itself after a dropped connection or a restarted server (backing off up to 5 s)
// and says hello again with the same token: the snapshot restores everything.
import type { ServerMessage } from "./types";

export type LiveState = "connecting" | "open" | "lost";

export interface LiveHandlers {
  message: (message: ServerMessage) => void;
  state: (state: LiveState) => void;
}

export class Live {
  private socket: WebSocket | null = null;
  private closed = false;
  private attempt = 0;
  private timer: number | undefined;
  private pinger: number | undefined;
  private nextRef = 1;
  private relanging = false;
  private readonly url: string;

  constructor(
    matchId: string,
    private readonly token: string | null,
    private lang: string,
    private readonly handlers: LiveHandlers,
  ) {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    this.url = `${scheme}://${location.host}/api/matches/${encodeURIComponent(matchId)}/live`;
    this.connect();
  }

  private connect(): void {
    if (this.closed) return;
    this.handlers.state("connecting");
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.onopen = () => {
      this.attempt = 0;
      socket.send(JSON.stringify({ type: "hello", token: this.token, lang: this.lang }));
      this.handlers.state("open");
      window.clearInterval(this.pinger);
      // A ping now and then notices a silently dead connection (and keeps proxies happy).
      this.pinger = window.setInterval(() => this.send({ type: "ping" }), 20000);
    };
    socket.onmessage = (event) => {
      if (typeof event.data !== "string") return;
      try {
        this.handlers.message(JSON.parse(event.data) as ServerMessage);
      } catch (error) {
        console.error("keltis: a message could not be handled", error);
      }
    };
    socket.onclose = () => {
      window.clearInterval(this.pinger);
      if (this.socket !== socket || this.closed) return;
      this.socket = null;
      if (this.relanging) {
        // A new hello in another language: not a lost connection.
        this.relanging = false;
        this.connect();
        return;
      }
      this.handlers.state("lost");
      const delay = Math.min(5000, 250 * 2 ** this.attempt);
      this.attempt += 1;
      this.timer = window.setTimeout(() => this.connect(), delay);
    };
  }

  /** Send a request; returns its `ref` (answers repeat it), or null when not connected. */
  send(message: Record<string, unknown>): number | null {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return null;
    const ref = this.nextRef++;
    this.socket.send(JSON.stringify({ ...message, ref }));
    return ref;
  }

  /** Say hello again in another language (the server words its errors in the hello's). */
  relang(lang: string): void {
    this.lang = lang;
    if (!this.socket) return;
    this.relanging = true;
    this.socket.close();
  }

  close(): void {
    this.closed = true;
    window.clearTimeout(this.timer);
    window.clearInterval(this.pinger);
    this.socket?.close();
    this.socket = null;
  }
}
