// The page every conversation webview loads: the bundle from dist/, a strict content security policy
// (nothing but our nonce'd script runs; no inline styles or remote content), theme colors from VS Code,
// and the loading skeleton until the script has the host's first answer.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { loadingSkeletonHtml } from '../../webview/common/loadingSkeleton';

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    localResourceRoots: [
      vscode.Uri.joinPath(extensionUri, 'dist'),
      vscode.Uri.joinPath(extensionUri, 'media'),
    ],
  };
}

/** `page`: what webview.js mounts, the conversation or the usage panel (one bundle serves both). */
export function webviewHtml(
  webview: vscode.Webview,
  extensionUri: vscode.Uri,
  title: string,
  page: 'conversation' | 'usage' = 'conversation',
): string {
  const nonce = randomBytes(16).toString('base64');
  const asset = (name: string) =>
    webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', name)).toString();
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
    `img-src ${webview.cspSource} data:`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${asset('webview.css')}">
<title>${escape(title)}</title>
</head>
<body data-page="${page}">
${page === 'conversation' ? loadingSkeletonHtml : ''}
<div id="root"></div>
<script nonce="${nonce}" src="${asset('webview.js')}"></script>
</body>
</html>`;
}

function escape(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
