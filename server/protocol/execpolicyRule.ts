// The line "always allow commands starting with …" (acceptWithExecpolicyAmendment) stores in the
// user's `default.rules`, in Codex's rules language. One function, so the approval card shows the rule
// exactly as the server will write it.
export function allowRuleLine(prefix: readonly string[]): string {
  return `prefix_rule(pattern=${JSON.stringify(prefix)}, decision="allow")`;
}
