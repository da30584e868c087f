package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// The TraceBody functions below are the one way a protocol keeps a secret of a
// reply (a token, player addresses) out of debug output: the exchange is still
// recorded, with its request, status line and attempt count, and only the body
// is replaced.

// Withhold returns a TraceBody that keeps only the body's length and why it is
// not recorded (a reply that is all secret, such as a sign-in's token answer).
func Withhold(why string) func([]byte) []byte {
	return func(body []byte) []byte {
		return fmt.Appendf(nil, "[%d bytes not recorded: %s]", len(body), why)
	}
}

// RedactJSON returns a TraceBody that keeps a JSON reply after edit has removed or
// masked what it must not show in the decoded value (objects are map[string]any,
// arrays []any, numbers json.Number so that they read as sent). A body that does
// not parse is withheld whole: it may still hold what edit would have removed;
// what names the reply and its secret in the placeholder.
func RedactJSON(what string, edit func(v any)) func([]byte) []byte {
	return func(body []byte) []byte {
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return fmt.Appendf(nil, "[%d-byte %s withheld: it does not parse]", len(body), what)
		}
		edit(v)
		var out bytes.Buffer
		enc := json.NewEncoder(&out)
		enc.SetEscapeHTML(false) // the trace shows "<" and "&" in names as they are
		if enc.Encode(v) != nil {
			return fmt.Appendf(nil, "[%d-byte %s withheld]", len(body), what)
		}
		return bytes.TrimSuffix(out.Bytes(), []byte("\n"))
	}
}
