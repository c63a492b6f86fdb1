export function App() {
  return (
    <main className="tl-app">
      <span className="codicon codicon-comment-discussion" aria-hidden="true" />
      <p>Select a thread to see its conversation.</p>
    </main>
  );
}
