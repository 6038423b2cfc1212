/* The setup picture (issue 35): ticking a checklist step greys its pieces at once, before the
   server answers (the answer then redraws the picture as saved). Without JavaScript the page comes
   back from the server with the pieces already greyed. */
(function () {
  "use strict";
  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest(".tick-button");
    if (!button || button.disabled) return;
    var item = button.closest("li.tick");
    var form = button.form;
    if (!item || !item.id || !form || !form.elements.done) return;
    var done = form.elements.done.value === "1";
    var pieces = document.querySelectorAll('[data-tick="' + item.id + '"]');
    for (var i = 0; i < pieces.length; i++) pieces[i].classList.toggle("pic-done", done);
  });
})();
