/* City of Five Sails: a Leader linked to a duel starts from its tracker. When "This is that player's
   Leader" is ticked with a player chosen, fill "Wounds already" (and Resolve, when the tracker knows
   it) from that player's tracker. The server does the same whatever is sent: this only shows it. */
(function () {
  "use strict";
  function fill(side) {
    var select = side.querySelector("select[name$='.player']");
    var leader = side.querySelector("input[type=checkbox][name$='.leader']");
    if (!select || !leader || !leader.checked) return;
    var option = select.options[select.selectedIndex];
    if (!option || !option.value) return;
    var wounds = side.querySelector("input[name$='.wounds']");
    var resolve = side.querySelector("input[name$='.resolve']");
    if (wounds) wounds.value = option.getAttribute("data-wounds") || "0";
    if (resolve && option.getAttribute("data-resolve")) resolve.value = option.getAttribute("data-resolve");
  }
  document.addEventListener("change", function (e) {
    var side = e.target.closest && e.target.closest("[data-fs-tracked]");
    if (side && (e.target.matches("select[name$='.player']") || e.target.matches("input[name$='.leader']"))) fill(side);
  });
})();
