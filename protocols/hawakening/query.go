package hawakening

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/netip"
	"net/url"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	username string
	password protocols.Secret
	guid     string        // lower case
	api      protocols.API // defaultBase; a test's fake in tests

	// One grant per module, shared by its probes until the backend refuses
	// it (it states no lifetime).
	grant *protocols.SignIn
}

// String and GoString keep the password and grant out of %v and %#v.
func (q *querier) String() string {
	return fmt.Sprintf("hawakening{user %q, server %s}", q.username, q.guid)
}

func (q *querier) GoString() string { return q.String() }

// Response body caps: a sign-in answer is small; the listing holds every
// public server, a KiB or so each.
const (
	maxGrantBody = 64 << 10
	maxListBody  = 1 << 20
)

// Query signs in when no grant is kept (phase challenge), then reads the
// listing and picks the module's server (phase info). A kept grant the
// backend refuses is replaced once within the probe.
//
// Not a protocols.HTTPExchange: a sign-in, then the listing.
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	addr := t.Addr
	switch {
	case q.username == "" || q.password == "":
		return nil, fmt.Errorf("%w: the module names no account (hawakening: {username: ..., password_file: ...})", wire.ErrServer)
	case q.guid == "":
		return nil, fmt.Errorf("%w: the module names no server (hawakening: {server_guid: ...}): the listing has no addresses", wire.ErrServer)
	}
	grant, fresh, err := q.accessGrant(ctx, addr, "", tr)
	if err != nil {
		return nil, err
	}
	p := tr.Begin("info")
	env, status, err := q.listings(ctx, addr, grant, tr)
	if err == nil && refused(env, status) && !fresh {
		tr.Log("the backend refused the kept grant: signing in again")
		if grant, _, err = q.accessGrant(ctx, addr, grant, tr); err == nil {
			env, status, err = q.listings(ctx, addr, grant, tr)
		}
	}
	var res *protocols.Result
	if err == nil {
		res, err = q.pick(env, status)
	}
	tr.End(p, err)
	return res, err
}

// accessGrant returns the kept grant, or signs in (fresh). stale is a grant
// the backend just refused: it is not returned again.
func (q *querier) accessGrant(ctx context.Context, addr netip.AddrPort, stale string, tr *wire.Trace) (grant string, fresh bool, err error) {
	return q.grant.Token(ctx, stale, func() (string, time.Time, error) {
		p := tr.Begin("challenge")
		g, err := q.signIn(ctx, addr, tr)
		tr.End(p, err)
		return g, time.Time{}, err // kept until refused
	})
}

// signIn posts the password. The trace records the request with the password
// masked and the answer without its body (it is the grant).
func (q *querier) signIn(ctx context.Context, addr netip.AddrPort, tr *wire.Trace) (string, error) {
	body, _ := json.Marshal(map[string]string{"Password": q.password.Reveal()})
	resp, err := wire.DoHTTP(ctx, addr, wire.HTTPRequest{
		Method:    http.MethodPost,
		URL:       q.api.URL(addr, "/users/"+url.PathEscape(q.username)+"/accessGrant"),
		Header:    http.Header{"Accept": {"*/*"}, "Content-Type": {"application/json"}},
		Body:      body,
		RootCAs:   q.api.RootCAs,
		MaxBody:   maxGrantBody,
		TraceBody: wire.Withhold("the sign-in answer holds the access grant"),
		TraceSent: func([]byte) []byte { return []byte(`{"Password":"<secret>"}`) },
	}, tr)
	if err != nil {
		return "", fmt.Errorf("hawakening sign-in: %w", err)
	}
	env, err := decodeEnvelope(resp)
	if err != nil {
		return "", fmt.Errorf("hawakening sign-in: %w", err)
	}
	return grantOf(env, resp.Status, q.username, q.password)
}

// listings reads the server listing with the grant.
func (q *querier) listings(ctx context.Context, addr netip.AddrPort, grant string, tr *wire.Trace) (*envelope, int, error) {
	resp, err := wire.DoHTTP(ctx, addr, wire.HTTPRequest{
		URL:     q.api.URL(addr, "/gameServerListings"),
		Header:  http.Header{"Accept": {"*/*"}, "Authorization": {"Basic " + grant}},
		RootCAs: q.api.RootCAs,
		MaxBody: maxListBody,
	}, tr)
	if err != nil {
		return nil, 0, fmt.Errorf("hawakening server listing: %w", err)
	}
	env, err := decodeEnvelope(resp)
	if err != nil {
		return nil, 0, fmt.Errorf("hawakening server listing: %w", err)
	}
	return env, resp.Status, nil
}

// pick checks the listing answer and maps the module's server.
func (q *querier) pick(env *envelope, status int) (*protocols.Result, error) {
	list, err := listingsOf(env, status)
	if err != nil {
		return nil, err
	}
	return list.result(q.guid)
}
