// How a thread's status looks in the tree: the conversation's header reads it the same way, from the
// one function in webview/common/threadStatus (its title is webview/common/threadTitle).
export { statusLook, statusText, type StatusLook } from '../../webview/common/threadStatus';
