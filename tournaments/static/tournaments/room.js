// The room screen: fetches its content again every data-refresh seconds and puts it in
// place (no reload, no flicker; a failed fetch keeps what is shown), and on a wide screen
// shows its slides (pages of tables, of standings) one at a time, each data-slide seconds.
// Without JavaScript the page reloads itself every minute and shows every slide.
(() => {
  const root = document.getElementById("room");
  if (!root) return;
  const wide = window.matchMedia("(min-width: 50rem)");
  let index = 0;
  const show = () => {
    const slides = [...root.querySelectorAll(".room-slide")];
    const rotate = wide.matches && slides.length > 1;
    root.classList.toggle("is-rotating", rotate);
    if (!slides.length) return;
    index %= slides.length;
    slides.forEach((slide, i) => slide.classList.toggle("is-current", !rotate || i === index));
  };
  const load = async () => {
    try {
      const response = await fetch(root.dataset.panel, { cache: "no-store" });
      if (!response.ok) throw new Error(String(response.status));
      root.innerHTML = await response.text();
      root.classList.remove("is-stale");
      show();
      document.dispatchEvent(new Event("clock:refresh"));
    } catch (error) {
      root.classList.add("is-stale");
    }
  };
  show();
  wide.addEventListener("change", show);
  setInterval(() => { index += 1; show(); }, Number(root.dataset.slide) * 1000);
  setInterval(load, Number(root.dataset.refresh) * 1000);
})();
