/* Play history: share a finished table's result through the phone's own share sheet (Web Share
   API) where there is one; the Copy button next to it works everywhere. */
(function () {
  "use strict";

  function reveal(root) {
    if (!navigator.share) return;
    var buttons = (root || document).querySelectorAll("[data-share]");
    for (var i = 0; i < buttons.length; i++) buttons[i].hidden = false;
  }

  document.addEventListener("DOMContentLoaded", function () { reveal(document); });
  document.addEventListener("htmx:afterSwap", function (e) { reveal(e.target); });

  document.addEventListener("click", function (e) {
    var btn = e.target.closest("[data-share]");
    if (!btn || !navigator.share) return;
    var source = document.getElementById(btn.getAttribute("data-share"));
    if (!source) return;
    navigator.share({ text: source.value }).catch(function () { /* closed by the player: nothing to do */ });
  });
})();
