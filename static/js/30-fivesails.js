/* City of Five Sails: a Leader linked to a duel starts from its tracker. When a side's "Ana's Leader"
   chip is tapped, fill "Wounds already" (and Resolve, when the tracker knows it) from that player's
   tracker. The server does the same whatever is sent: this only shows it. */
(function () {
  "use strict";
  function put(box, value) {
    if (!box) return;
    box.value = value;
    box.dispatchEvent(new Event("input", { bubbles: true }));  /* the box's chips follow it */
  }
  document.addEventListener("change", function (e) {
    var chip = e.target;
    if (!chip.matches || !chip.matches("[data-fs-tracked] input[type=radio][name$='.leader_of']")) return;
    if (!chip.checked || !chip.value) return;
    var side = chip.closest("[data-fs-tracked]");
    var prefix = chip.name.slice(0, -".leader_of".length);
    put(side.querySelector("input[type=text][name='" + prefix + ".wounds']"), chip.getAttribute("data-wounds") || "0");
    if (chip.getAttribute("data-resolve")) {
      put(side.querySelector("input[type=text][name='" + prefix + ".resolve']"), chip.getAttribute("data-resolve"));
    }
  });
})();
