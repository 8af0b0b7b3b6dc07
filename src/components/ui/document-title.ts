// The tab title: "(<unread>) <page> · Hub Console". Pages set their name, the layout the unread
// count, each without knowing about the other.

let page = 'Hub Console';
let unread = 0;

export function titleOf(pageTitle: string, unreadCount: number): string {
  return `${unreadCount > 0 ? `(${unreadCount}) ` : ''}${pageTitle}`;
}

function apply() {
  document.title = titleOf(page, unread);
}

export function setPageTitle(title: string): void {
  page = `${title} · Hub Console`;
  apply();
}

export function setUnreadInTitle(count: number): void {
  unread = count;
  apply();
}
