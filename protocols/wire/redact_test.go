package wire

import (
	"strings"
	"testing"
)

func TestRedactJSON(t *testing.T) {
	drop := RedactJSON("test reply", func(v any) { delete(v.(map[string]any), "secret") })
	if got := string(drop([]byte(`{"secret":"s3","n":1e999,"name":"a<b"}`))); got != `{"n":1e999,"name":"a<b"}` {
		t.Errorf("redacted %s", got)
	}
	if got := string(drop([]byte(`{"secret":"s3"`))); strings.Contains(got, "s3") || !strings.Contains(got, "14-byte test reply withheld") {
		t.Errorf("unparsable body: %s", got)
	}
	if got := string(Withhold("it holds a token")([]byte("tok"))); got != "[3 bytes not recorded: it holds a token]" {
		t.Errorf("withheld %s", got)
	}
}
