// Placeholder until the demo (issue 8) exists: says what is not built yet.
console.log('care-actions-slack demo: the sandbox, app and playground are still being built; run `npm test` to see what works.');
