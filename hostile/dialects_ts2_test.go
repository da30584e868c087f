package hostile

// --- TeamSpeak 2 TCP query: "[TS]" greeting; sel, si, then quit ---

const ts2Greeting = "[TS]\r\n"

// ts2Reply answers `sel` and, ahead of the client asking, `si`: the fake servers
// answer one read, so the whole rest of the exchange goes at once.
func ts2Reply([]byte) []byte {
	return []byte("OK\r\nserver_name=" + serverName + "\r\nserver_password=0\r\nserver_maxusers=32\r\nserver_currentusers=2\r\nOK\r\n")
}
