/* Sinful Gibbon's round form: a tap in a count box selects the count it holds, so the digits typed
   replace it (no tap to clear the 0 first). Without JavaScript the box behaves as usual. */
(function () {
  "use strict";
  var BOX = ".gb-layer [data-num] input[type=text]";
  function selectAll(box) {
    if (box.value) box.setSelectionRange(0, box.value.length);
  }
  document.addEventListener("focusin", function (e) {
    if (!e.target.matches || !e.target.matches(BOX)) return;
    e.target.setAttribute("data-just-focused", "");
    selectAll(e.target);
  });
  document.addEventListener("focusout", function (e) {
    if (e.target.matches && e.target.matches(BOX)) e.target.removeAttribute("data-just-focused");
  });
  /* A tap's mouseup puts the caret where the finger was: select again on the click that focused. */
  document.addEventListener("click", function (e) {
    if (!e.target.matches || !e.target.matches(BOX) || !e.target.hasAttribute("data-just-focused")) return;
    e.target.removeAttribute("data-just-focused");
    selectAll(e.target);
  });
})();
