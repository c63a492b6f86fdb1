// The loading skeleton, as HTML the host puts into the page itself (webviewHtml.ts): it shows from the
// first paint, before the script has even been parsed, and the script removes it once the host's first
// answer is in (webview/states/loading.ts). The shape of a conversation, so the view is never a blank
// column; theme colors only (webview/main.css).
export const loadingElementId = 'tl-loading';

export const loadingSkeletonHtml = `<div id="${loadingElementId}" class="tl-loading" role="status" aria-busy="true" aria-label="Loading the conversation">
<div class="tl-loading-text">Loading the conversation…</div>
<div class="tl-skeleton tl-skeleton-title"></div>
<div class="tl-skeleton tl-skeleton-user"></div>
<div class="tl-skeleton tl-skeleton-line"></div>
<div class="tl-skeleton tl-skeleton-line tl-skeleton-short"></div>
<div class="tl-skeleton tl-skeleton-block"></div>
<div class="tl-skeleton tl-skeleton-composer"></div>
</div>`;
