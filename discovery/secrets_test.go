package discovery

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// TestURLKeyShowsNowhere (issue 35, M2): a key in a source URL's query shows
// neither in the /sd 503 body, nor on the sources table, nor in the log,
// when the fetch fails (net/http's error text quotes the URL).
func TestURLKeyShowsNowhere(t *testing.T) {
	cfg, err := parse(t, `
keyed:
  type: http_json
  url: http://127.0.0.1:1/servers?key=S3CRET
  fields: {address: ip}
  refresh: 10m
`)
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	m := NewManager(slog.New(slog.NewTextHandler(&log, nil)))
	done := make(chan error, 1)
	m.OnRefresh = func(_ string, err error) { done <- err }
	m.Apply(cfg)
	t.Cleanup(m.Stop)
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
