// The "Print" buttons of the tournament pages (no inline scripts).
document.querySelectorAll("button.t-print").forEach((button) => {
  button.addEventListener("click", () => window.print());
});
