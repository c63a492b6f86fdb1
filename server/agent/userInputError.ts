/** Input that cannot be used as given; the message names the field's value. */
export class UserInputError extends Error {}
