export default defineBackground(() => {
  // wired in later issues
});
