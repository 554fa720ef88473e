/* Every page: the language switch returns to the page as it is now (its query included,
   also after htmx has pushed a new URL). A GET form marked data-lang-keeps (the checker's)
   is read as it stands, so cards picked a moment before the switch are not lost. */
(function () {
  "use strict";
  function formUrl(form) {
    var query = new URLSearchParams();
    new FormData(form).forEach(function (value, name) {
      if (typeof value === "string" && value !== "") query.append(name, value);
    });
    return new URL(form.action, window.location.href).pathname + "?" + query.toString();
  }
  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!form.classList || !form.classList.contains("lang")) return;
    var next = form.querySelector('input[name="next"]');
    if (!next) return;
    var kept = document.querySelector("form[data-lang-keeps]");
    next.value = kept ? formUrl(kept) :
      window.location.pathname + window.location.search + window.location.hash;
  }, true);
})();
