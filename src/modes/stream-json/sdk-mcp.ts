// The Agent SDK's in-process MCP servers (createSdkMcpServer): the host names them in initialize's
// sdkMcpServers and runs them itself. Each is an MCP connection whose messages travel as
// control requests: ours to the host as `mcp_message` (its answer carries the server's reply as
// mcp_response), the server's own (a notification such as tools/list_changed) to us the same way.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { ControlChannel } from "./control.ts";

export type SdkMcpServers = {
  /** The transports the session's MCP service connects through, one per server. */
  servers: Array<{ name: string; transport: () => Transport }>;
  /** An mcp_message the host sent us: handed to that server's connection; false for a server we do not know. */
  deliver(serverName: string, message: unknown): boolean;
};

export function sdkMcpServers(names: string[], control: ControlChannel): SdkMcpServers {
  const live = new Map<string, ControlTransport>();
  return {
    servers: names.map((name) => ({
      name,
      transport: () => {
        const t = new ControlTransport(name, control);
        live.set(name, t);
        return t;
      },
    })),
    deliver(serverName, message) {
      const t = live.get(serverName);
      if (!t) return false;
      t.onmessage?.(message as JSONRPCMessage);
      return true;
    },
  };
}

class ControlTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly stop = new AbortController();

  constructor(
    private readonly server: string,
    private readonly control: ControlChannel,
  ) {}

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.stop.signal.aborted) throw new Error("the connection to the host's server is closed");
    // Answered in the background: the MCP client matches the reply to its request by id.
    void this.control.request({ subtype: "mcp_message", server_name: this.server, message }, this.stop.signal).then((a) => {
      const isRequest = "method" in message && "id" in message;
      if (!isRequest) return;
      if (!a.ok) {
        if (a.error !== "cancelled") this.onmessage?.({ jsonrpc: "2.0", id: message.id, error: { code: -32603, message: `the host did not pass the message to its server ${this.server}: ${a.error}` } });
        return;
      }
      const reply = a.response.mcp_response;
      if (reply && typeof reply === "object") this.onmessage?.(reply as JSONRPCMessage);
      else this.onmessage?.({ jsonrpc: "2.0", id: message.id, error: { code: -32603, message: `the host answered for its server ${this.server} without an mcp_response` } });
    });
  }

  async close(): Promise<void> {
    if (this.stop.signal.aborted) return;
    this.stop.abort();
    this.onclose?.();
  }
}
