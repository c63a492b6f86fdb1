// Whether a provider that lives on this machine (Ollama, LM Studio, a local vLLM) is running: its
// OpenAI-compatible models endpoint answers within a moment.
const timeoutMs = 800;

export function isLocal(baseUrl: string | null): boolean {
  if (!baseUrl) return false;
  try {
    return ['localhost', '127.0.0.1', '[::1]'].includes(new URL(baseUrl).hostname);
  } catch {
    return false;
  }
}

export async function isRunning(baseUrl: string): Promise<boolean> {
  try {
    const response = await fetch(`${baseUrl.replace(/\/+$/, '')}/models`, {
      signal: AbortSignal.timeout(timeoutMs),
    });
    // A server that wants a key for its model list is running all the same.
    return response.ok || response.status === 401 || response.status === 403;
  } catch {
    return false;
  }
}
