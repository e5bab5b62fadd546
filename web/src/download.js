// Saves bytes as a file: a Blob URL on a temporary <a download>, clicked, then revoked. Blob
// URLs are navigations of the page's own origin, so the Content-Security-Policy (img-src
// 'self' data:, no blob:) does not apply to them. The one way the page downloads anything.
//
//   downloadBlob(new Blob([bytes], {type: 'application/octet-stream'}), 'embedlab-...-table.npy');
//   downloadBytes(bytes, name, type)   // the same for a Uint8Array or string

// Long enough for the browser to start reading the Blob (Chrome starts the download on click).
const REVOKE_AFTER_MS = 30000;

export function downloadBlob(blob, name) {
  const a = document.createElement('a');
  const url = URL.createObjectURL(blob);
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}

export function downloadBytes(bytes, name, type = 'application/octet-stream') {
  downloadBlob(new Blob([bytes], { type }), name);
}
