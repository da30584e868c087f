package idtechtest

import (
	"maps"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Q3Frame completes s for a protocol of the id Tech 3 frame (quake3,
// darkplaces): its status reply echoes the challenge, and s gets the strays,
// unusable and broken replies any such server can send besides its own.
func Q3Frame(s Status, challenge func(req []byte) (string, bool), reply func(challenge string, lines ...string) []byte) Status {
	s.Reply = echoing(challenge, reply)
	s.Challenge = challenge
	s.Strays = func([]byte) [][]byte {
		return [][]byte{reply("someone-else", `9 9 "stray"`), []byte(OOB + "print\nrate limited\n"), []byte("junk")}
	}
	s.Unusable = with(s.Unusable, map[string]Bad{
		"wrong challenge": {reply("not-yours", playerLine("a")), wire.ErrMismatch},
	})
	s.Broken = with(s.Broken, map[string]Bad{
		"keyword only": {[]byte(OOB + "statusResponse"), wire.ErrTruncated},
		"no backslash": {[]byte(OOB + "statusResponse\nhostname x\n"), wire.ErrMalformed},
	})
	return s
}

// echoing is a Status.Reply that echoes the request's challenge (empty when
// the request has none) into reply.
func echoing(challenge func(req []byte) (string, bool), reply func(challenge string, lines ...string) []byte) func([]byte, ...string) []byte {
	return func(req []byte, lines ...string) []byte {
		c, _ := challenge(req)
		return reply(c, lines...)
	}
}

// with is a copy of own with more added.
func with(own, more map[string]Bad) map[string]Bad {
	m := maps.Clone(more)
	maps.Copy(m, own)
	return m
}
