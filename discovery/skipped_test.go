package discovery

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestEntriesSkipped (issue 35, L1): entries of a list that do not decode
// (a number in an http_json array, a string where a number belongs) or have
// no address cost themselves: /sd serves the rest, and
// gameserver_discovery_entries_skipped_total counts them by reason, across
// refreshes.
func TestEntriesSkipped(t *testing.T) {
	srv, _ := prototest.HTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`[{"ip":"192.0.2.1","port":1}, 7, {"ip":"192.0.2.2","port":"x"}, {"ip":{}}, {"ip":"192.0.2.3","port":3}]`))
	}), false)
	cfg := parse(t, fmt.Sprintf(`
list:
  type: http_json
  url: %s/servers
  fields: {address: ip, port: port}
  refresh: 10m
`, srv.URL))
	m, _ := started(t, cfg)
	if code, groups, body := getSD(t, m, "source=list"); code != 200 || len(groups) != 2 {
		t.Fatalf("%d %s", code, body)
	}
	if _, err := m.Refresh(context.Background(), "list"); err != nil {
		t.Fatal(err)
	}
	want := `# HELP gameserver_discovery_entries_skipped_total Entries of the source's lists skipped, by reason (no_address, repeat, malformed, too_large, too_deep): one bad entry costs itself, the rest are served.
# TYPE gameserver_discovery_entries_skipped_total counter
gameserver_discovery_entries_skipped_total{reason="malformed",source="list"} 2
gameserver_discovery_entries_skipped_total{reason="no_address",source="list"} 4
`
	if err := testutil.CollectAndCompare(m, strings.NewReader(want), "gameserver_discovery_entries_skipped_total"); err != nil {
		t.Fatal(err)
	}
}
