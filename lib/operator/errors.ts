// What an operator command reports as one line and a non-zero exit: bad input, a refused transaction,
// an account that is not what the command needs. Anything else is a bug and keeps its stack.
export class OperatorError extends Error {}
