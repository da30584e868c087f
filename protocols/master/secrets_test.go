package master

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://list.example/servers":                    "https://list.example/servers",
		"https://list.example/servers?key=S3CRET&page=2":  "https://list.example/servers?key=<secret>&page=<secret>",
		"https://list.example/servers?S3CRET":             "https://list.example/servers?<secret>",
		"https://list.example/servers?empty=&k=S3CRET#S3": "https://list.example/servers?empty=&k=<secret>",
		"https://user:S3CRET@list.example/servers":        "https://<secret>@list.example/servers",
		"http://[::1]:8080/x?token=S3CRET":                "http://[::1]:8080/x?token=<secret>",
		"::S3CRET":                                        "<a URL that does not parse>",
	} {
		if got := RedactURL(in); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
}

// TestURLSecrets (issue 35, M2): a key in a list URL's query shows in no
// error (net/http's quote the URL), trace or print of the lister, whether the
// list fails to connect, answers an error or is read; a key in headers or a
// header file reaches the list and shows nowhere either.
func TestURLSecrets(t *testing.T) {
	srv, _ := prototest.HTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("key") != "S3CRET" && r.Header.Get("X-Api-Key") != "S3CRET" {
			w.WriteHeader(http.StatusForbidden)
			return
		}
		if r.URL.Query().Get("fail") != "" {
			http.Redirect(w, r, r.URL.String(), http.StatusFound) // a Location echoing the key
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `[{"ip":"192.0.2.1","port":1}]`)
	}), false)
	key := keyFile(t, "S3CRET")
	fields := Fields{Address: "ip", Port: "port"}
	for _, tc := range []struct {
		name  string
		src   Source
		fails bool
	}{
		{"key in the query", Source{URL: srv.URL + "/l?key=S3CRET"}, false},
		{"key in the query, redirected", Source{URL: srv.URL + "/l?key=S3CRET&fail=1"}, true},
		{"key in the query, nobody listening", Source{URL: "http://127.0.0.1:1/l?key=S3CRET"}, true},
		{"key in a header", Source{URL: srv.URL + "/l", Headers: map[string]protocols.Secret{"x-api-key": "S3CRET"}}, false},
		{"key in a header file", Source{URL: srv.URL + "/l", HeaderFiles: map[string]string{"X-Api-Key": key}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.src.Type, tc.src.Fields = TypeHTTPJSON, fields
			got, err := listHidden(t, tc.src, "S3CRET", 3*time.Second)
			if tc.fails != (err != nil) || err == nil && len(got.Entries) != 1 {
				t.Fatalf("err %v, list %+v", err, got)
			}
		})
	}
}
