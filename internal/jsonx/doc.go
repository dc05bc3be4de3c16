// Package jsonx owns the JSON the module reads and writes by hand: what
// counts as white space between tokens (IsSpace, SkipSpace), the appenders
// that write strings, numbers, times and members exactly as encoding/json
// does (AppendString, Member and friends), the reader that takes back what
// they wrote without reflection (Canon), and the request scanner that
// checks a body in one pass (Scan) with the one tokenizer the hand-written
// decoders read with (Reader). It imports nothing of the module, so
// the kernel, the areas, the rails, the HTTP adapter and the stores can all
// use it.
package jsonx
