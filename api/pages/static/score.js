// The scoring form at a table (记分表 behind the QR code). Tap the four seats in finishing order,
// post the deal; without a network the deal waits in localStorage with its Idempotency-Key and is
// sent again, with the same key, until the server has it. Every text goes in through textContent.
(() => {
  "use strict";
  const root = document.getElementById("score");
  const gameId = root.dataset.gameId;
  const api = root.dataset.api;
  const token = new URLSearchParams(window.location.search).get("token") || "";
  const queueKey = `zhisai.score.${gameId}.queue`;
  const SIDE_NAMES = { NS: "南北", EW: "东西" };
  const PLACES = ["上游", "二游", "三游", "下游"];
  const LEVELS = { 11: "J", 12: "Q", 13: "K", 14: "A" };
  const RETRY_MS = 4000;

  let game = null;
  let order = [];
  let flushing = false;

  const byId = (id) => document.getElementById(id);
  const level = (side) => (side.passed_a ? "过A" : LEVELS[side.level] || String(side.level));

  function loadQueue() {
    try {
      return JSON.parse(window.localStorage.getItem(queueKey) || "[]");
    } catch {
      return [];
    }
  }

  function saveQueue(queue) {
    window.localStorage.setItem(queueKey, JSON.stringify(queue));
  }

  function newKey() {
    const bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return `game-${gameId}-` + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function status(kind, text) {
    const box = byId("status");
    box.className = `status ${kind}`;
    box.textContent = text;
  }

  function call(method, path, body, idempotencyKey) {
    // the token also spares the hall's phones, behind one address, the anonymous rate limit
    const headers = { Accept: "application/json", Authorization: `Bearer ${token}` };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
    return window.fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
  }

  async function problemOf(response) {
    try {
      const body = await response.json();
      return body.detail || body.title || `HTTP ${response.status}`;
    } catch {
      return `HTTP ${response.status}`;
    }
  }

  function declares() {
    if (!game) return "";
    if (game.state !== "in_play") {
      return `本局结束：南北 ${level(game.ns)}，东西 ${level(game.ew)}`;
    }
    if (!game.declarer) return "双方打 2";
    const other = game.declarer === "NS" ? "EW" : "NS";
    const on = game.declarer === "NS" ? game.ns : game.ew;
    const off = game.declarer === "NS" ? game.ew : game.ns;
    return `${SIDE_NAMES[game.declarer]}打 ${level(on)}，${SIDE_NAMES[other]}在 ${level(off)}`;
  }

  function renderSeats(queue) {
    const open = game && game.state === "in_play" && !queue.some((item) => item.error);
    document.querySelectorAll("button.seat").forEach((button) => {
      const place = order.indexOf(button.dataset.seat);
      button.classList.toggle("chosen", place >= 0);
      button.querySelector(".place").textContent = place >= 0 ? PLACES[place] : "";
      button.disabled = !open || place >= 0;
    });
    byId("post").disabled = !open || order.length !== 4;
    byId("undo").disabled = order.length === 0;
    byId("deal-no").textContent = String((game ? game.deals.length : 0) + queue.length + 1);
  }

  function renderQueue(queue) {
    byId("queue-box").hidden = queue.length === 0;
    const list = byId("queue");
    list.replaceChildren(
      ...queue.map((item) => {
        const row = document.createElement("li");
        row.textContent = `第${item.deal_no}副：${item.finish_order.join(" ")}` + (item.error ? `（被拒绝：${item.error}）` : "");
        row.className = item.error ? "refused" : "waiting";
        return row;
      }),
    );
    byId("discard").hidden = !queue.some((item) => item.error);
  }

  function renderDeals() {
    const rows = (game ? game.deals : []).map((deal) => {
      const row = document.createElement("tr");
      for (const text of [deal.deal_no, deal.finish_order.join(" "), LEVELS[deal.ns_level] || deal.ns_level, LEVELS[deal.ew_level] || deal.ew_level]) {
        const cell = document.createElement("td");
        cell.textContent = String(text);
        row.appendChild(cell);
      }
      return row;
    });
    byId("deals").replaceChildren(...rows.reverse());
  }

  function renderConfirm() {
    const ended = game && game.state === "ended";
    byId("confirm-box").hidden = !ended;
    byId("final").hidden = !(game && game.state === "final");
    if (!game) return;
    byId("result").textContent = game.winner ? `胜方：${SIDE_NAMES[game.winner]}（${game.summary}）` : game.summary;
    document.querySelectorAll("button[data-confirm]").forEach((button) => {
      const side = button.dataset.confirm === "NS" ? game.ns : game.ew;
      button.disabled = side.confirmed;
      button.textContent = `${SIDE_NAMES[button.dataset.confirm]}${side.confirmed ? "已确认" : "确认"}`;
    });
  }

  function render() {
    const queue = loadQueue();
    if (game) {
      document.querySelector('[data-level="NS"]').textContent = level(game.ns);
      document.querySelector('[data-level="EW"]').textContent = level(game.ew);
      byId("side-NS").classList.toggle("declarer", game.declarer === "NS");
      byId("side-EW").classList.toggle("declarer", game.declarer === "EW");
      byId("declares").textContent = declares();
    }
    byId("entry").hidden = Boolean(game) && game.state !== "in_play";
    renderSeats(queue);
    renderQueue(queue);
    renderDeals();
    renderConfirm();
  }

  async function refresh() {
    try {
      const response = await call("GET", api);
      if (response.ok) {
        game = await response.json();
        render();
      }
    } catch {
      status("offline", "离线：显示的是上次的成绩");
    }
  }

  async function flush() {
    if (flushing) return;
    flushing = true;
    try {
      for (let queue = loadQueue(); queue.length && !queue[0].error; queue = loadQueue()) {
        const item = queue[0];
        let response;
        try {
          response = await call("POST", `${api}/deals`, { deal_no: item.deal_no, finish_order: item.finish_order }, item.key);
        } catch {
          status("offline", `离线：${queue.length} 副待发送，联网后自动重发`);
          return;
        }
        if (response.ok) {
          const answer = await response.json();
          game = answer.game;
          saveQueue(loadQueue().filter((waiting) => waiting.key !== item.key));
          render();
          continue;
        }
        if (response.status >= 500 || response.status === 429) {
          status("offline", `服务器忙：${queue.length} 副待发送，稍后自动重发`);
          return;
        }
        item.error = await problemOf(response);
        saveQueue(queue);
        status("error", `第${item.deal_no}副未登记：${item.error}`);
        render();
        return;
      }
      if (!loadQueue().length) status("ok", "已同步");
    } finally {
      flushing = false;
    }
  }

  function tap(seat) {
    if (order.includes(seat) || order.length >= 4) return;
    order.push(seat);
    if (order.length === 3) {
      // the last seat is the one left
      order.push(["N", "E", "S", "W"].find((s) => !order.includes(s)));
    }
    render();
  }

  function post() {
    if (order.length !== 4) return;
    const queue = loadQueue();
    queue.push({
      deal_no: (game ? game.deals.length : 0) + queue.length + 1,
      finish_order: order,
      key: newKey(),
      queued_at: new Date().toISOString(),
    });
    saveQueue(queue);
    order = [];
    render();
    flush();
  }

  async function confirm(side) {
    try {
      const response = await call("POST", `${api}/confirmations`, { side });
      if (response.ok) {
        game = await response.json();
        status("ok", `${SIDE_NAMES[side]}已确认`);
      } else {
        status("error", await problemOf(response));
      }
    } catch {
      status("offline", "离线：确认需要联网，请稍后再点");
    }
    render();
  }

  document.querySelectorAll("button.seat").forEach((button) => button.addEventListener("click", () => tap(button.dataset.seat)));
  byId("undo").addEventListener("click", () => {
    order = order.length === 4 ? order.slice(0, 2) : order.slice(0, -1);
    render();
  });
  byId("post").addEventListener("click", post);
  byId("discard").addEventListener("click", () => {
    saveQueue(loadQueue().filter((item) => !item.error));
    refresh().then(flush);
  });
  document.querySelectorAll("button[data-confirm]").forEach((button) => button.addEventListener("click", () => confirm(button.dataset.confirm)));
  window.addEventListener("online", flush);
  window.setInterval(() => {
    if (loadQueue().length) flush();
  }, RETRY_MS);

  refresh().then(flush);
})();
