// A data channel to a friend's page, set up by exchanging two codes: no server of ours.
//
// The host's page makes an offer, the guest's page an answer; each is the
// SDP cut to what a data channel needs (ICE user fragment and password, the
// DTLS fingerprint, the setup role, the gathered candidates), deflated and
// written in base64url. The offer travels in a link's fragment
// (index.html#join=CODE: a fragment is never sent to a server). With no ICE
// server (the default) only host candidates are gathered: devices on one
// network connect. STUN/TURN servers come from the player's settings.
//
//   const link = await invite({ iceServers, game })   // host: link.code, link.url
//   await link.accept(answerCode)                       // host: resolves once open
//   const link = await join(code, { iceServers })      // guest: link.code (the answer)
//   await link.opened                                   // guest: resolves once open
//   link.send(text); link.onmessage = (text) => ...; link.onclose = (reason) => ...
//   link.finish()                                       // leave: sent messages go first
//   const { ok, value, reason } = await settle(join(code))  // a failure's reason as data
//
// Failures reject with an Error whose `reason` is one of "bad-code" (a damaged
// code), "other-invitation" (an answer to another invitation), "timed-out" (no
// connection within CONNECT_MS of the answer: the host's clock starts when the
// answer is pasted, the guest's when it is made), "no-route" (ICE found no
// path, or a code names no network address), "closed"; the page words them.
// `settle` hands the reason over as data: an Error's own fields do not survive
// the way into the page's MicroPython.
// The heartbeat is this module's: a ping every HEARTBEAT_MS, answered at once,
// and a link that hears nothing for SILENCE_MS closes with reason "silent".
// Every other message goes to onmessage as text, for the engine to check.

export const HEARTBEAT_MS = 2000;
export const SILENCE_MS = 9000;
export const CONNECT_MS = 30000;
export const GATHER_MS = 5000;
const FORMAT = "1";
const PING = '{"v":1,"kind":"ping"}';
const PONG = '{"v":1,"kind":"pong"}';

function failure(reason, message) {
  const error = new Error(message || reason);
  error.reason = reason;
  return error;
}

// --- the codes -------------------------------------------------------------------

function base64url(bytes) {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function unbase64url(text) {
  const plain = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(plain, (char) => char.charCodeAt(0));
}

async function pipe(bytes, stream) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

/** The parts of an SDP a data channel needs, as one short line of text. */
export function cutSdp(sdp, kind, extra) {
  const value = (name) => (sdp.match(new RegExp(`^a=${name}:(.*)$`, "m")) || [])[1]?.trim();
  const fingerprint = value("fingerprint")?.split(" ")[1] || "";
  const hex = fingerprint.replace(/:/g, "");
  const print = base64url(Uint8Array.from(hex.match(/../g) || [], (pair) => parseInt(pair, 16)));
  const candidates = [...sdp.matchAll(/^a=candidate:(.*)$/gm)].map((match) => {
    const [foundation, component, protocol, priority, address, port, , type] =
      match[1].trim().split(" ");
    if (component !== "1" || protocol.toLowerCase() !== "udp") return null;
    return [type[0], address, port, priority, foundation].join(",");
  }).filter(Boolean);
  return [FORMAT, kind, extra, value("ice-ufrag"), value("ice-pwd"), print,
    value("setup"), ...candidates].join(" ");
}

/** The SDP again from cutSdp's line (what setRemoteDescription needs). */
export function fullSdp(line) {
  const [format, kind, extra, ufrag, pwd, print, setup, ...candidates] = line.split(" ");
  if (format !== FORMAT || !["o", "a"].includes(kind) || !ufrag || !pwd || !print || !setup) {
    throw failure("bad-code", "not an invitation or answer code");
  }
  const hex = [...unbase64url(print)].map((byte) => byte.toString(16).padStart(2, "0")
    .toUpperCase()).join(":");
  const types = { h: "host", s: "srflx", r: "relay", p: "prflx" };
  const lines = ["v=0", "o=- 1 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0",
    "a=msid-semantic: WMS", "m=application 9 UDP/DTLS/SCTP webrtc-datachannel",
    "c=IN IP4 0.0.0.0", `a=ice-ufrag:${ufrag}`, `a=ice-pwd:${pwd}`,
    `a=fingerprint:sha-256 ${hex}`, `a=setup:${setup}`, "a=mid:0", "a=sctp-port:5000",
    "a=max-message-size:262144"];
  for (const candidate of candidates) {
    const [type, address, port, priority, foundation] = candidate.split(",");
    if (!types[type] || !address || !/^\d+$/.test(port) || !/^\d+$/.test(priority)) {
      throw failure("bad-code", "a code's network address is malformed");
    }
    lines.push(`a=candidate:${foundation} 1 udp ${priority} ${address} ${port} typ ${types[type]}`);
  }
  lines.push("a=end-of-candidates");
  return { kind, extra, ufrag, candidates: candidates.length,
    sdp: lines.join("\r\n") + "\r\n" };
}

/** A cut SDP line as a code: deflated (deflate-raw), base64url. */
export async function encode(line) {
  return base64url(await pipe(new TextEncoder().encode(line),
    new CompressionStream("deflate-raw")));
}

/** A code back to its line; a code that is not one rejects with reason "bad-code". */
export async function decode(code) {
  const text = String(code || "").trim().replace(/^.*#(join|answer)=/, "");
  try {
    if (!/^[A-Za-z0-9_-]{20,4000}$/.test(text)) throw new Error("not base64url");
    return fullSdp(new TextDecoder().decode(await pipe(unbase64url(text),
      new DecompressionStream("deflate-raw"))));
  } catch (error) {
    if (error.reason) throw error;
    throw failure("bad-code", "this is not an invitation or answer code");
  }
}

/** A page link carrying a code in its fragment (never sent to a server). */
export function codeLink(name, code, base = location.href) {
  const url = new URL(base);
  url.hash = `${name}=${code}`;
  return url.href;
}

// --- the connection ----------------------------------------------------------------

/** The ICE servers of the player's settings: "stun:…" URLs and a TURN server. */
export function iceServers({ stun = "", turn = "", username = "", credential = "" } = {}) {
  const servers = [];
  const urls = String(stun).split(/[\s,]+/).filter((url) => /^stuns?:/.test(url));
  if (urls.length) servers.push({ urls });
  if (/^turns?:/.test(String(turn).trim())) {
    servers.push({ urls: String(turn).trim(), username, credential });
  }
  return servers;
}

function gathered(connection) {
  if (connection.iceGatheringState === "complete") return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      if (connection.iceGatheringState === "complete") resolve();
    };
    connection.addEventListener("icegatheringstatechange", done);
    setTimeout(resolve, GATHER_MS); // a STUN server that never answers: go with what we have
  });
}

/** A promise's outcome as data: `{ ok: true, value }` or `{ ok: false, reason }`. */
export function settle(promise) {
  return Promise.resolve(promise).then((value) => ({ ok: true, value, reason: null }),
    (error) => ({ ok: false, value: null, reason: error?.reason || "bad-code" }));
}

/** A code naming no network address: its device cannot be reached. */
function unreachable(code) {
  if (!code.candidates) throw failure("no-route", "the code names no network address");
  return code;
}

function channelLink(connection) {
  // counts: messages sent and heard, and the longest the page itself stood still (ms);
  // for a test that wants to know why a link went silent.
  const link = { connection, onmessage: () => {}, onclose: () => {}, channel: null,
    closed: null, counts: { sent: 0, heard: 0, stalled: 0 } };
  let heard = Date.now();
  let timer = null;
  let limit = null;
  link.send = (text) => {
    if (link.channel?.readyState !== "open") return;
    link.channel.send(String(text));
    link.counts.sent += 1;
  };
  link.close = (reason = "closed") => {
    if (link.closed) return;
    link.closed = reason;
    clearInterval(timer);
    clearTimeout(limit);
    try { link.channel?.close(); connection.close(); } catch { /* already closed */ }
    link.onclose(reason);
  };
  // Leaving: nothing more is heard, and what was sent goes before the channel closes
  // (a data channel's close sends its pending messages first; the connection's does not).
  link.finish = () => {
    link.onmessage = () => {};
    link.onclose = () => {};
    clearInterval(timer);
    if (link.channel?.readyState !== "open") link.close("closed");
    else link.channel.close(); // its "close" event then closes the connection
  };
  // A closed or reloaded page lets its friend know at once, not after the heartbeat's silence.
  addEventListener("pagehide", () => link.close("closed"));
  link.opened = new Promise((resolve, reject) => {
    link.clock = () => {
      if (!limit) {
        limit = setTimeout(() => { // given up: closed, so the other side cannot open it late
          reject(failure("timed-out", "no connection in time"));
          link.close("timed-out");
        }, CONNECT_MS);
      }
    };
    connection.addEventListener("iceconnectionstatechange", () => {
      if (connection.iceConnectionState === "failed") {
        clearTimeout(limit);
        reject(failure("no-route", "no network route between the devices"));
        link.close("no-route");
      }
    });
    link.adopt = (channel) => {
      link.channel = channel;
      channel.addEventListener("open", () => {
        clearTimeout(limit);
        heard = Date.now();
        let ticked = heard;
        timer = setInterval(() => {
          const now = Date.now();
          // This page itself stood still (a busy or suspended tab): what the friend sent
          // meanwhile may still wait in the queue behind this tick, so its silence counts
          // from now, not from before the stall.
          if (now - ticked > 2 * HEARTBEAT_MS) heard = Math.max(heard, now - HEARTBEAT_MS);
          link.counts.stalled = Math.max(link.counts.stalled, now - ticked - HEARTBEAT_MS);
          ticked = now;
          if (now - heard > SILENCE_MS) link.close("silent");
          else link.send(PING);
        }, HEARTBEAT_MS);
        resolve(link);
      });
      channel.addEventListener("message", (event) => {
        heard = Date.now();
        link.counts.heard += 1;
        const text = typeof event.data === "string" ? event.data : "";
        if (text === PING) link.send(PONG);
        else if (text !== PONG) link.onmessage(text);
      });
      channel.addEventListener("close", () => link.close("closed"));
    };
  });
  link.opened.catch(() => {});
  return link;
}

/** The host's side: an invitation (code and link) for the game `game`. */
export async function invite({ iceServers: servers = [], game = "", base } = {}) {
  const connection = new RTCPeerConnection({ iceServers: servers });
  const link = channelLink(connection);
  link.adopt(connection.createDataChannel("cribbage", { ordered: true }));
  await connection.setLocalDescription(await connection.createOffer());
  await gathered(connection);
  const line = cutSdp(connection.localDescription.sdp, "o", game || "-");
  if (line.split(" ").length <= 7) { // no candidate: this device has no network
    connection.close();
    throw failure("no-route", "this device found no network address");
  }
  link.ufrag = line.split(" ")[3];
  link.code = await encode(line);
  link.url = codeLink("join", link.code, base);
  link.accept = async (code) => {
    const answer = await decode(code);
    if (answer.kind !== "a") throw failure("bad-code", "this is an invitation, not an answer");
    if (answer.extra !== link.ufrag) {
      throw failure("other-invitation", "this answer is for another invitation");
    }
    unreachable(answer);
    link.clock();
    await connection.setRemoteDescription({ type: "answer", sdp: answer.sdp });
    return link.opened;
  };
  return link;
}

/** The guest's side: the answer to an invitation code (or link). */
export async function join(code, { iceServers: servers = [], base } = {}) {
  const offer = await decode(code);
  if (offer.kind !== "o") throw failure("bad-code", "this is an answer, not an invitation");
  unreachable(offer);
  const connection = new RTCPeerConnection({ iceServers: servers });
  const link = channelLink(connection);
  link.game = offer.extra === "-" ? null : offer.extra;
  connection.addEventListener("datachannel", (event) => link.adopt(event.channel));
  await connection.setRemoteDescription({ type: "offer", sdp: offer.sdp });
  await connection.setLocalDescription(await connection.createAnswer());
  await gathered(connection);
  link.code = await encode(cutSdp(connection.localDescription.sdp, "a", offer.ufrag));
  link.url = codeLink("answer", link.code, base);
  link.clock();
  return link;
}

/** A QR code of `text` as an <img> data URL (the pinned qrcode-generator). */
export async function qrImage(text) {
  const { default: qrcode } = await import("./{{QRCODE_DIR}}/dist/qrcode.mjs");
  const code = qrcode(0, "L");
  code.addData(text);
  code.make();
  return code.createDataURL(4, 4);
}
