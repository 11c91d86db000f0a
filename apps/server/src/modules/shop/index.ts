// What the shop module offers other modules; they import nothing else from it.
// Nothing yet: the shop is the top of the money modules (settings → payments → shop).
export {};
