/* Every page: the language switch returns to the page as it is now (its query included,
   also after htmx has pushed a new URL). */
(function () {
  "use strict";
  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!form.classList || !form.classList.contains("lang")) return;
    var next = form.querySelector('input[name="next"]');
    if (next) next.value = window.location.pathname + window.location.search + window.location.hash;
  }, true);
})();
