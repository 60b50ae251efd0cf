// The not-found page's code field goes straight to the room's page (without script it opens the lobby). A
// file, not an inline script, so the page runs under the server's Content-Security-Policy (script-src 'self').
(function () {
  var form = document.getElementById('not-found-code');
  var input = document.getElementById('other-code');
  var error = document.getElementById('other-code-error');
  input.addEventListener('input', function () {
    input.value = input.value.toUpperCase().replace(/[^A-Z]/g, '');
    error.textContent = '';
    input.removeAttribute('aria-invalid');
  });
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var code = input.value.replace(/\s+/g, '').toUpperCase();
    if (!/^[A-Z]{4,5}$/.test(code)) {
      error.textContent = 'Room codes are 4 letters, like QHTW.';
      input.setAttribute('aria-invalid', 'true');
      input.focus();
      return;
    }
    window.location.assign('/r/' + code);
  });
}());
