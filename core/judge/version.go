package judge

// Version is ragjudge's version, reported by the JS API as rj.version.
const Version = "0.1.0"
