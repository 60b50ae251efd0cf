#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import Bots

@Suite struct ServerSamplerTests {
    @Test func readsUnlabelledSamplesOfPrometheusText() {
        let text = """
            # HELP process_resident_memory_bytes Resident memory size in bytes.
            # TYPE process_resident_memory_bytes gauge
            process_resident_memory_bytes 27582464
            process_cpu_seconds_total 1.25
            wordrooms_websocket_closes_total{code="1000"} 12
            """
        let values = ServerSampler.parsePrometheus(text)
        #expect(values["process_resident_memory_bytes"] == 27_582_464)
        #expect(values["process_cpu_seconds_total"] == 1.25)
        #expect(values.count == 2, "labelled samples are left out")
    }

    @Test func readsMemoryAndCPUOfAProcessFromProc() throws {
        let sample = ServerSampler.fromProc(pid: Int(getpid()), takenAt: 0)
        let resident = try #require(sample.residentBytes)
        #expect(resident > 1 << 20)
        let cpu = try #require(sample.cpuSeconds)
        let user = try #require(sample.cpuUserSeconds)
        let system = try #require(sample.cpuSystemSeconds)
        #expect(cpu >= 0)
        #expect(abs(user + system - cpu) < 1e-9, "user and system time add up to the CPU time")
        #expect(sample.source == "/proc/\(getpid())")
    }

    @Test func aMissingProcessHasNoFigures() {
        let sample = ServerSampler.fromProc(pid: Int(Int32.max), takenAt: 0)
        #expect(sample.residentBytes == nil)
        #expect(sample.source.hasPrefix("unavailable"))
    }
}
