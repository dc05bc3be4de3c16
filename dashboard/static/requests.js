// The request log page's live rows: each request the API answers after the
// page loaded arrives on the dashboard's requests/stream (server-sent
// events, the API's request log stream) and is added at the top of the
// table, built with text nodes only (no markup from the stream).
(() => {
  "use strict";
  const state = document.getElementById("live-state");
  const body = document.querySelector("table.requests tbody");
  if (!state || !body || !window.EventSource) return;
  const cell = (row, text, cls) => {
    const td = row.insertCell();
    if (cls) td.className = cls;
    if (text) td.append(text);
    return td;
  };
  const code = (text) => { const c = document.createElement("code"); c.textContent = text; return c; };
  const when = (iso) => {
    const t = document.createElement("time");
    t.dateTime = iso;
    t.textContent = new Date(iso).toISOString().slice(0, 19).replace("T", " ") + " UTC";
    return t;
  };
  const source = new EventSource(state.dataset.stream);
  source.addEventListener("open", () => { state.textContent = "Live: new requests appear at the top as they are answered."; });
  source.addEventListener("error", () => { state.textContent = "Reconnecting to the request log…"; });
  source.addEventListener("request", (ev) => {
    const r = JSON.parse(ev.data);
    const row = body.insertRow(0);
    row.className = "arrived";
    cell(row, when(r.time));
    cell(row, code(r.method + " " + r.path));
    const badge = document.createElement("span");
    badge.className = "badge " + (r.status >= 500 ? "bad" : r.status >= 400 ? "wait" : "ok");
    badge.textContent = String(r.status);
    cell(row, badge);
    cell(row, r.code ? code(r.code) : null);
    cell(row, r.durationMs.toFixed(1) + " ms", "num");
    cell(row, code(r.requestId));
    cell(row, r.idempotencyKey ? code(r.idempotencyKey) : null);
    cell(row, r.clientId ? code(r.clientId) : null);
    const none = document.getElementById("no-requests");
    if (none) none.remove();
  });
})();
