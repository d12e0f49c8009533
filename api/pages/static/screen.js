// The hall's big screen: polls its board with If-None-Match and swaps it in when it changed (the
// server renders it, autoescaped); the round clock ticks here every second against the server's time.
(() => {
  "use strict";
  const screen = document.getElementById("screen");
  const boardBox = document.getElementById("board");
  const linkState = document.getElementById("link-state");
  const every = Number(screen.dataset.every) || 3000;
  let etag = screen.dataset.etag;
  let offset = 0; // server time minus this machine's time

  const pad = (n) => String(n).padStart(2, "0");

  function readServerTime() {
    const board = boardBox.querySelector(".board");
    const now = board && Date.parse(board.dataset.now);
    if (now) offset = now - Date.now();
  }

  function tick() {
    const clock = document.getElementById("clock");
    if (!clock || !clock.dataset.deadline) return;
    const phase = clock.dataset.phase;
    if (!["running", "final_minutes", "time_up"].includes(phase)) return;
    const left = Math.max(0, Math.floor((Date.parse(clock.dataset.deadline) - (Date.now() + offset)) / 1000));
    const warning = Number(clock.dataset.warning) * 60;
    const next = left === 0 ? "time_up" : warning && left <= warning ? "final_minutes" : "running";
    clock.textContent = left === 0 ? "时间到" : `${pad(Math.floor(left / 60))}:${pad(left % 60)}`;
    clock.className = `clock phase-${next}`;
    const banner = document.getElementById("warning");
    if (banner) banner.hidden = next !== "final_minutes";
  }

  async function poll() {
    try {
      const response = await window.fetch(screen.dataset.src, {
        headers: etag ? { "If-None-Match": etag } : {},
        cache: "no-store",
      });
      if (response.status === 200) {
        const html = await response.text();
        etag = response.headers.get("ETag") || "";
        boardBox.innerHTML = html;
        readServerTime();
        tick();
      }
      linkState.textContent = "";
    } catch {
      linkState.textContent = "连接中断，正在重试…";
    } finally {
      window.setTimeout(poll, every);
    }
  }

  readServerTime();
  tick();
  window.setInterval(tick, 1000);
  window.setTimeout(poll, every);
})();
