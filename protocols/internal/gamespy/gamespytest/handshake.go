package gamespytest

import "github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"

// HandshakeThen is a GameSpy v3/v4 server that answers each handshake with
// token (ChallengeReply) and each other request with stat's datagrams.
func HandshakeThen(token string, stat func(req []byte) [][]byte) prototest.Handler {
	return func(req []byte) [][]byte {
		switch {
		case len(req) < 7:
			return nil
		case req[2] == 0x09:
			return ChallengeReply(req, token)
		}
		return stat(req)
	}
}

// Serve is HandshakeThen answering each stat request with parts, in order,
// each echoing the request's session.
func Serve(token string, parts ...[]byte) prototest.Handler {
	return HandshakeThen(token, func(req []byte) [][]byte {
		out := make([][]byte, len(parts))
		for i, p := range parts {
			out[i] = WithSession(p, req[3:7])
		}
		return out
	})
}
