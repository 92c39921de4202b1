import { createSocket } from "node:dgram";

const TXT = 16;
const MX = 15;
const CNAME = 5;
const NXDOMAIN = 3;

export type TxtServer = {
  /** `host:port`, the form `DNS_RESOLVER` takes. */
  address: string;
  /**
   * TXT records by lowercase name; change it at will, each query reads it afresh. A record given as
   * an array is sent as exactly those strings; a string is cut every 255 bytes.
   */
  records: Map<string, (string | string[])[]>;
  /** MX records by lowercase name; a name with MX records exists even without TXT ones. */
  mx: Map<string, { exchange: string; priority: number }[]>;
  /** CNAME targets by lowercase name, answered to CNAME queries. */
  cname: Map<string, string>;
  /** Names whose queries get no answer at all, to exercise timeouts. */
  silent: Set<string>;
  /** Names whose next query is answered only once the function has run (then forgotten): something happens mid-lookup. */
  hold: Map<string, () => Promise<void>>;
  close: () => Promise<void>;
};

function readName(packet: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  let at = offset;
  while (packet[at] !== 0) {
    const length = packet[at];
    labels.push(packet.subarray(at + 1, at + 1 + length).toString("latin1"));
    at += 1 + length;
  }
  return { name: labels.join(".").toLowerCase(), end: at + 1 };
}

/** One TXT record's data: length-prefixed strings of at most 255 bytes each, as DNS requires. */
function txtData(value: string | string[]): Buffer {
  const strings = Array.isArray(value) ? value.map((part) => Buffer.from(part, "utf8")) : [];
  if (!Array.isArray(value)) {
    const bytes = Buffer.from(value, "utf8");
    for (let at = 0; at < bytes.length || strings.length === 0; at += 255) strings.push(bytes.subarray(at, at + 255));
  }
  return Buffer.concat(strings.flatMap((part) => [Buffer.from([part.length]), part]));
}

/** A domain name in DNS wire form: length-prefixed labels and a zero. */
const wireName = (name: string) =>
  Buffer.concat([
    ...name
      .replace(/\.$/, "")
      .split(".")
      .map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label, "latin1")])),
    Buffer.from([0]),
  ]);

function mxData(record: { exchange: string; priority: number }): Buffer {
  const priority = Buffer.alloc(2);
  priority.writeUInt16BE(record.priority);
  return Buffer.concat([priority, wireName(record.exchange)]);
}

function answer(query: Buffer, records: TxtServer["records"], mx: TxtServer["mx"], cname: TxtServer["cname"]): Buffer | null {
  if (query.length < 12 || query.readUInt16BE(4) !== 1) return null;
  const { name, end } = readName(query, 12);
  const type = query.readUInt16BE(end);
  const question = query.subarray(12, end + 4);
  const values = records.get(name);
  const exchanges = mx.get(name);
  const alias = cname.get(name);
  const rows: Buffer[] =
    type === TXT && values ? values.map(txtData) : type === MX && exchanges ? exchanges.map(mxData) : type === CNAME && alias ? [wireName(alias)] : [];
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2);
  header.writeUInt16BE(0x8180 | (values || exchanges || alias ? 0 : NXDOMAIN), 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(rows.length, 6);
  const answers = rows.map((data) => {
    const fixed = Buffer.alloc(12);
    fixed.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
    fixed.writeUInt16BE(type, 2);
    fixed.writeUInt16BE(1, 4);
    fixed.writeUInt32BE(60, 6);
    fixed.writeUInt16BE(data.length, 10);
    return Buffer.concat([fixed, data]);
  });
  return Buffer.concat([header, question, ...answers]);
}

/**
 * A tiny authoritative DNS server on 127.0.0.1 answering TXT, MX and CNAME queries from maps: the real lookup
 * path of domain verification, without the internet. For tests and local development.
 */
export async function startTxtServer(): Promise<TxtServer> {
  const socket = createSocket("udp4");
  const records: TxtServer["records"] = new Map();
  const mx: TxtServer["mx"] = new Map();
  const cname: TxtServer["cname"] = new Map();
  const silent = new Set<string>();
  const hold: TxtServer["hold"] = new Map();
  socket.on("message", async (query, peer) => {
    try {
      const name = readName(query, 12).name;
      if (silent.has(name)) return;
      const before = hold.get(name);
      hold.delete(name);
      await before?.();
      const reply = answer(query, records, mx, cname);
      if (reply) socket.send(reply, peer.port, peer.address);
    } catch {
      // A malformed query gets no answer, as from a real server.
    }
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    records,
    mx,
    cname,
    silent,
    hold,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
