// Opened with #en, #ptBR or #es (the interface language): show only that section.
// An external file, not an inline script, so the app's Content-Security-Policy allows it.
(function () {
  var id = location.hash.slice(1);
  var section = id && document.getElementById(id);
  if (!section) return;
  section.className = 'shown';
  document.body.className = 'only';
  document.documentElement.lang = section.lang;
})();
