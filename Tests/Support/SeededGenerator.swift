import Foundation

/// A deterministic random number generator (SplitMix64): small, fast and the same on every
/// machine, so that a generated case, or a whole random run, replays exactly from its seed.
public struct SeededGenerator: RandomNumberGenerator {
    /// The generator's state; the seed it starts from.
    public var state: UInt64

    /// A generator starting from `state`.
    public init(state: UInt64) { self.state = state }

    /// A generator starting from `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A version-4-shaped UUID from the generator, so that ids replay with the seed too.
    public mutating func uuid() -> UUID {
        let high = next(), low = next()
        var bytes = UUID().uuid
        withUnsafeMutableBytes(of: &bytes) { raw in
            raw.storeBytes(of: high, toByteOffset: 0, as: UInt64.self)
            raw.storeBytes(of: low, toByteOffset: 8, as: UInt64.self)
            raw[6] = (raw[6] & 0x0F) | 0x40
            raw[8] = (raw[8] & 0x3F) | 0x80
        }
        return UUID(uuid: bytes)
    }
}
