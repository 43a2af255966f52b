// Counts the session clock down between the page's refreshes (the clock screen reloads
// itself; the room screen fetches its content again and sends "clock:refresh"), and shows
// the warning of a [data-clock] box (its data-warn seconds left or fewer, still running)
// and its "time is up" once the count reaches zero.
(() => {
  const format = (seconds) => {
    const s = Math.max(0, seconds);
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    const pad = (n) => String(n).padStart(2, "0");
    return h ? `${h}:${pad(m)}:${pad(s % 60)}` : `${pad(m)}:${pad(s % 60)}`;
  };
  let timer = null;
  const run = () => {
    if (timer) clearInterval(timer);
    const start = Date.now();
    const clocks = [...document.querySelectorAll("[data-left]")];
    const left = clocks.map((el) => Number(el.dataset.left));
    const boxes = [...document.querySelectorAll("[data-clock]")];
    const tick = () => {
      const run = Math.floor((Date.now() - start) / 1000);
      const now = clocks.map((el, i) => (el.dataset.running === "1" ? left[i] - run : left[i]));
      clocks.forEach((el, i) => {
        if (el.dataset.running === "1") el.textContent = format(now[i]);
      });
      boxes.forEach((box) => {
        const i = clocks.indexOf(box.querySelector("[data-left]"));
        if (i < 0) return;
        const running = clocks[i].dataset.running === "1";
        const warning = running && now[i] > 0 && now[i] <= Number(box.dataset.warn);
        const over = clocks[i].dataset.started === "1" && now[i] <= 0;
        box.classList.toggle("is-warning", warning);
        box.classList.toggle("is-over", over);
        box.querySelectorAll("[data-clock-warning]").forEach((m) => { m.hidden = !warning; });
        box.querySelectorAll("[data-clock-over]").forEach((m) => { m.hidden = !over; });
      });
    };
    tick();
    if (clocks.some((el) => el.dataset.running === "1")) timer = setInterval(tick, 250);
  };
  run();
  document.addEventListener("clock:refresh", run);
})();
