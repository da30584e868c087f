package collector

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestSecretGoesOnlyToListedTargets: a module carrying a password sends it only to
// the targets the operator listed (hostile round, row 1: palworld's basic auth went
// to any target a caller named). Another target fails as target_not_allowed with
// nothing sent; a listed one gets the query.
func TestSecretGoesOnlyToListedTargets(t *testing.T) {
	var requests, withAuth atomic.Int32
	_, addr := prototest.HTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		if r.Header.Get("Authorization") != "" {
			withAuth.Add(1)
		}
		http.Error(w, "no", http.StatusUnauthorized)
	}), false)
	target := addr.String()
	module := func(targets string) string {
		return fmt.Sprintf("modules:\n  pal:\n    protocol: palworld\n    targets: [%s]\n    palworld: {password: hunter2}\n", targets)
	}
	tests := []struct {
		name, targets string
		allowed       bool
	}{
		{"other address", "127.0.0.2", false},
		{"other CIDR", "10.0.0.0/8", false},
		{"other name", "game.example.org", false},
		{"listed address", "127.0.0.1", true},
		{"listed CIDR", "127.0.0.0/8", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			requests.Store(0)
			withAuth.Store(0)
			r := policyRunner(t, module(tc.targets))
			o := run(t, r, "pal", target, "")
			if !tc.allowed {
				if o.Reason() != "target_not_allowed" || requests.Load() != 0 {
					t.Fatalf("targets %s: reason %q (%v), %d requests reached the server", tc.targets, o.Reason(), o.Err, requests.Load())
				}
				if !strings.Contains(o.Err.Error(), "not among the module's targets") {
					t.Errorf("the error says why: %v", o.Err)
				}
				return
			}
			if o.Reason() == "target_not_allowed" || withAuth.Load() == 0 {
				t.Fatalf("targets %s: reason %q, %d requests with credentials", tc.targets, o.Reason(), withAuth.Load())
			}
		})
	}
}

// TestSecretNameTargets: a listed host name allows that name (resolved as the
// operator's DNS says), not another name resolving elsewhere.
func TestSecretNameTargets(t *testing.T) {
	var requests atomic.Int32
	_, addr := prototest.HTTP(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		requests.Add(1)
		http.Error(w, "no", http.StatusUnauthorized)
	}), false)
	r := policyRunner(t, "modules:\n  pal:\n    protocol: palworld\n    targets: [game.example.org]\n    palworld: {password: hunter2}\n")
	r.Resolver = staticResolver{"game.example.org": {addr.Addr()}, "evil.example.net": {addr.Addr()}}
	port := fmt.Sprint(addr.Port())
	if o := run(t, r, "pal", "evil.example.net:"+port, ""); o.Reason() != "target_not_allowed" {
		t.Errorf("an unlisted name: reason %q", o.Reason())
	}
	if requests.Load() != 0 {
		t.Fatalf("%d requests for an unlisted name", requests.Load())
	}
	if o := run(t, r, "pal", "game.example.org:"+port, ""); o.Reason() == "target_not_allowed" || requests.Load() != 1 {
		t.Errorf("the listed name: reason %q, %d requests", o.Reason(), requests.Load())
	}
}
