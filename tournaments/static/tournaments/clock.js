// Counts the session clock down between the page's reloads (every 30 s, by the page).
(() => {
  const format = (seconds) => {
    const s = Math.max(0, seconds);
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    const pad = (n) => String(n).padStart(2, "0");
    return h ? `${h}:${pad(m)}:${pad(s % 60)}` : `${pad(m)}:${pad(s % 60)}`;
  };
  const start = Date.now();
  const clocks = [...document.querySelectorAll("[data-left]")].filter(
    (el) => el.dataset.running === "1");
  if (!clocks.length) return;
  const left = clocks.map((el) => Number(el.dataset.left));
  setInterval(() => {
    const run = Math.floor((Date.now() - start) / 1000);
    clocks.forEach((el, i) => { el.textContent = format(left[i] - run); });
  }, 250);
})();
