package discovery

import (
	"strings"
	"testing"
)

// TestURLKeyShowsNowhere (issue 35, M2): a key in a source URL's query shows
// neither in the /sd 503 body, nor on the sources table, nor in the log,
// when the fetch fails (net/http's error text quotes the URL).
func TestURLKeyShowsNowhere(t *testing.T) {
	cfg := parse(t, `
keyed:
  type: http_json
  url: http://127.0.0.1:1/servers?key=S3CRET
  fields: {address: ip}
  refresh: 10m
`)
	var log syncBuffer
	m, done := start(t, &log, cfg)
	if err := <-done; err == nil {
		t.Fatal("a fetch from a closed port succeeded")
	}
	code, _, body := getSD(t, m, "source=keyed")
	var table strings.Builder
	m.WriteSources(&table)
	shown := body + table.String() + log.String()
	if code != 503 || !strings.Contains(body, "refused") || strings.Contains(shown, "S3CRET") {
		t.Fatalf("%d, shown:\n%s", code, shown)
	}
}
