import Foundation
import Runtime
import Testing

/// `Blocking.run` called from the cooperative pool itself, by more tasks at once than the pool has threads
/// (as tests that start servers with `--data` do): every call returns. Its work waited for a pool thread
/// before, and with every one of them blocked in a call, none came.
@Suite struct BlockingTests {
    @Test(.timeLimit(.minutes(1))) func callsFromEveryThreadOfThePoolAtOnceAllReturn() async {
        let callers = ProcessInfo.processInfo.activeProcessorCount + 2
        let sum = await withTaskGroup(of: Int.self) { group in
            for index in 0..<callers {
                group.addTask {
                    Blocking.run {
                        await Task.yield()
                        return index
                    }
                }
            }
            return await group.reduce(0, +)
        }
        #expect(sum == callers * (callers - 1) / 2)
    }
}
