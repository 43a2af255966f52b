// Forms that ask before they are sent: <form data-confirm="question"> (no inline handlers:
// the Content-Security-Policy forbids them).
document.querySelectorAll("form[data-confirm]").forEach((form) => {
  form.addEventListener("submit", (event) => {
    if (!window.confirm(form.dataset.confirm)) {
      event.preventDefault();
    }
  });
});
