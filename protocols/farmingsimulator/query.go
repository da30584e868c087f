package farmingsimulator

import (
	"fmt"
	"net/http"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// maxBody caps the feed: a server with a few hundred mods lists them in ~100 KiB.
const maxBody = 1 << 20

// newQuerier returns a Querier that reads the stats feed with the code (masked in
// the trace). A module without a code, such as the built-in one, still asks (a
// closed or silent port says so as for any module); any answer then fails saying
// the code is missing.
var newQuerier = protocols.WithOptions("farmingsimulator", func(s protocols.Settings, opts Options) (protocols.Querier, error) {
	req := wire.HTTPRequest{Path: "/feed/dedicated-server-stats.xml", MaxBody: maxBody}
	code, err := protocols.QuerySecret(&req, "farmingsimulator code", "code", opts.Code, opts.CodeFile)
	if err != nil {
		return nil, err
	}
	return &protocols.HTTPExchange[*server]{Request: req,
		Decode: func(resp *wire.HTTPResponse) (*server, error) { return feed(resp, code != "") },
		Result: func(sv *server, _ *wire.Trace) *protocols.Result { return sv.result(s.Players) }}, nil
})

// feed decodes the stats feed, saying what a failure has to do with the code.
func feed(resp *wire.HTTPResponse, withCode bool) (*server, error) {
	var s *server
	var err error
	if resp.Status < 200 || resp.Status > 299 {
		err = wire.StatusError(resp)
	} else {
		s, err = decode(resp.Body)
	}
	switch {
	case err != nil && !withCode:
		err = fmt.Errorf("%w: the module has no code: give it farmingsimulator: {code_file: ...} with the stats feed code the web interface shows (the server answered: %v)", wire.ErrServer, err)
	case resp.Status == http.StatusUnauthorized || resp.Status == http.StatusForbidden:
		err = fmt.Errorf("%w (the stats feed code is wrong)", err)
	}
	return s, err
}
