package web

import (
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/discovery"
)

// TestStatusPageSources: the discovery sources are shown with their last
// refresh; a refresh's error, which may quote what a list sent, only to
// callers who may see debug output.
func TestStatusPageSources(t *testing.T) {
	sources := func() []discovery.Status {
		return []discovery.Status{
			{Name: "community_oa", Type: "quake3", Module: "openarena", Entries: 1200, Targets: 40,
				LastSuccess: time.Now().Add(-90 * time.Second), LastAttempt: time.Now()},
			{Name: "ddnet", Type: "ddnet", Module: "ddnet", LastAttempt: time.Now(), Failures: 3,
				LastError: "malformed: JSON at offset 7: <secret list page>"},
			{Name: "beammp", Type: "http_json", Builtin: true, Entries: 900, LastSuccess: time.Now(), LastAttempt: time.Now()},
		}
	}
	remote := renderStatus(t, "192.0.2.7:40000", PageOptions{HistoryLimit: 10, Sources: sources})
	wantAll(t, remote, "Discovery sources", `<a href="/sd?source=community_oa">community_oa</a>`, "<td>1m 3", ">1200<", ">40<", "never", "failing")
	if !strings.Contains(remote, "<td class=\"target\">beammp (built-in)</td>") || strings.Contains(remote, "/sd?source=beammp") {
		t.Error("a built-in list is not shown as one, or links /sd, which does not serve it")
	}
	if strings.Contains(remote, "secret list page") {
		t.Error("a remote caller sees a list's error message")
	}
	local := renderStatus(t, "127.0.0.1:40000", PageOptions{HistoryLimit: 10, Sources: sources})
	wantAll(t, local, "malformed: JSON at offset 7: &lt;secret list page&gt;")
	if none := renderStatus(t, "127.0.0.1:40000", PageOptions{HistoryLimit: 10}); strings.Contains(none, "Discovery sources") {
		t.Error("a sources section without sources")
	}
}
