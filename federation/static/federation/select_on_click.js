// A click in <input data-select-on-click> selects all of it, ready to copy (the API token).
document.querySelectorAll("input[data-select-on-click]").forEach((input) => {
  input.addEventListener("click", () => input.select());
});
