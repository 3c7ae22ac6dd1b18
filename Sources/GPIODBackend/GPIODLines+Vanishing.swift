#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CGPIOD
import LineInput
import SystemPackage

/// A chip that goes away and comes back while watched (`waitsForVanishedChips`): a USB or I²C expander
/// unplugged and plugged in again, a driver reloaded.
extension GPIODLines {
    /// `/dev` changed: every chip that is gone is let go, every chip that is back is requested again.
    func checkChips(into batch: inout EdgeBatch) {
        chipWatch?.drain()
        for request in requests.indices {
            let path = selections[requests[request].lines[0]].chip.path
            if !vanished[request], access(path, F_OK) != 0 {
                vanish(request, into: &batch)
            } else if vanished[request] {
                reattach(request, into: &batch)
            }
        }
    }

    /// Lets go of `request`, whose chip is gone (`gdb_request_release`), stops polling its descriptors
    /// (-1 in their places) and tells the loop its lines are unavailable.
    func vanish(_ request: Int, into batch: inout EdgeBatch) {
        guard !vanished[request] else { return }
        vanished[request] = true
        gdb_request_release(requestHandles[request])
        for slot in descriptorRequests.indices where descriptorRequests[slot] == request {
            descriptors[slot] = FileDescriptor(rawValue: -1)
            descriptorOwners[slot].request = -1
        }
        batch.availability.append(ChipAvailability(chip: requests[request].chipName, lines: requests[request].lines, isAvailable: false))
    }

    /// Requests `request`'s lines again if their chip is back: at its path, or at another with the same
    /// label and line count (a USB expander may come back under another number). When it cannot yet
    /// (udev has not given the device its group), the next change in `/dev` tries again. Once requested,
    /// its lines are read as lines that may have lost edges (`EdgeBatch.losses`), so that a button let
    /// go while its chip was away is released.
    func reattach(_ request: Int, into batch: inout EdgeBatch) {
        let lines = requests[request].lines
        let old = selections[lines[0]].chip
        let inUse = Set(requests.indices.filter { !vanished[$0] }.map { selections[requests[$0].lines[0]].chip.path })
        if let chip = GPIOChip.cameBack(old, excluding: inUse) {
            var chosen = lines.map { selections[$0] }
            for index in chosen.indices { chosen[index].chip = chip }
            guard let handle = try? Self.request(chosen, consumer: consumer, eventBufferSize: eventBufferSize) else { return }
            requestHandles[request] = handle
            vanished[request] = false
            requests[request].chipName = chip.name
            for (line, selection) in zip(lines, chosen) {
                selections[line] = selection
                lastSequence[line] = 0
                lastLevel[line] = nil
            }
            let slots = descriptorRequests.indices.filter { descriptorRequests[$0] == request }
            for (descriptor, slot) in slots.enumerated() where descriptor < Int(gdb_request_fd_count(handle)) {
                descriptors[slot] = Self.nonBlocking(gdb_request_fd(handle, UInt32(descriptor)))
                descriptorOwners[slot].request = request
            }
            for line in lines { batch.losses.append((line: line, count: nil)) }
            batch.availability.append(ChipAvailability(chip: chip.name, lines: lines, isAvailable: true))
        }
    }
}
