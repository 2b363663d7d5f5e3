// The fabric of a dcbkit scenario rebuilt in ns-3 3.37 (point-to-point links, IPv4 routers as the
// switches, UDP sources), as an independent simulator to compare dcbkit's per-flow results with
// (test/sim-ns3.test.ts; docs/sim.md, "Validation against ns-3"). Only lossy drop-tail fabrics with
// one frame size are described; what each dcbkit quantity becomes here:
//
//   dcbkit frame F (FCS included)      IPv4 packet of F + 18 B (UDP payload F - 10), which the PPP
//                                      device sends with its 2 B header: F + 20 B on the wire, the
//                                      bytes dcbkit serialises (frame + preamble/SFD 8 + IFG 12).
//   link rate, delay                   PointToPointNetDevice DataRate, channel Delay; no interframe
//                                      gap (the 20 B above include it).
//   switch lossy_queue Q (frame bytes) the egress device's DropTailQueue holding floor(Q / F)
//                                      packets: MaxSize = floor(Q / F) x (F + 20) B. Both queues
//                                      exclude the frame on the wire and drop an arrival that would
//                                      exceed the limit.
//   host NIC                           its device queue, large enough never to drop (a dcbkit host
//                                      holds frames back instead of losing them).
//   traffic.flows[].path               a /32 address of the flow's own on the destination and a
//                                      host route to it at every switch of the path.
//   rate, constant                     a frame every floor((F + 20) x 8e12 / rate) ps (dcbkit's gap).
//   rate, poisson                      exponential gaps with that mean, from ns-3's
//                                      ExponentialRandomVariable on stream = flow id.
//
// Flow control of the device queue is disabled (PointToPointHelper::DisableFlowControl): with it,
// ns-3 3.37 stops the device queue once it cannot take one more MTU-sized packet
// (NetDeviceQueue::PacketEnqueued) and the traffic-control layer then drops arrivals itself, so the
// effective queue would be one MTU shorter than MaxSize. Without it no queue disc is installed and
// the device's DropTailQueue is the only queue. Time resolution is 1 ps.
//
// Input (argv[1], one item per line, '#' starts a comment):
//   seed S | duration_ps T | frame F
//   node NAME host|switch
//   link A B RATE_BPS DELAY_PS QUEUE_A QUEUE_B      queue limits in frame bytes, 0 = never drops
//   flow ID SRC DST RATE_BPS START_PS STOP_PS constant|poisson NODE...   (the path, SRC to DST)
// Output (stdout, one JSON object): per flow the frames sent and the frames and frame bytes
// delivered with arrival time <= T; drops and packet-hops over the fabric.

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <chrono>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

// Bytes that dcbkit counts on the wire beyond the frame (preamble + SFD 8, IFG 12).
const uint32_t WIRE_OVERHEAD = 20;
// IPv4 20 + UDP 8 headers inside the packet; the PPP header (2 B) is added by the device.
const uint32_t IP_UDP_HEADERS = 28;
const uint32_t PPP_HEADER = 2;
const uint32_t DEVICE_MTU = 9000;
// A host's device queue: far more frames than a run at the offered rates ever holds.
const uint32_t HOST_QUEUE_PACKETS = 1000000;

struct FlowSpec
{
    uint32_t id;
    std::string src, dst;
    uint64_t rateBps;
    int64_t startPs, stopPs;
    bool poisson;
    std::vector<std::string> path;
};

struct LinkSpec
{
    std::string a, b;
    uint64_t rateBps;
    int64_t delayPs;
    uint64_t queueA, queueB;
};

struct Spec
{
    uint32_t seed = 1;
    int64_t durationPs = 0;
    uint32_t frame = 0;
    std::vector<std::pair<std::string, bool>> nodes; // name, is host
    std::vector<LinkSpec> links;
    std::vector<FlowSpec> flows;
};

[[noreturn]] void
Fail(const std::string& what)
{
    std::cerr << "dcbkit_ns3: " << what << std::endl;
    std::exit(2);
}

Spec
ReadSpec(const char* file)
{
    std::ifstream in(file);
    if (!in)
    {
        Fail(std::string("cannot read ") + file);
    }
    Spec s;
    std::string line;
    int lineNo = 0;
    while (std::getline(in, line))
    {
        lineNo++;
        auto hash = line.find('#');
        if (hash != std::string::npos)
        {
            line.erase(hash);
        }
        std::istringstream ls(line);
        std::string kw;
        if (!(ls >> kw))
        {
            continue;
        }
        bool ok = true;
        if (kw == "seed")
        {
            ok = bool(ls >> s.seed);
        }
        else if (kw == "duration_ps")
        {
            ok = bool(ls >> s.durationPs);
        }
        else if (kw == "frame")
        {
            ok = bool(ls >> s.frame);
        }
        else if (kw == "node")
        {
            std::string name, kind;
            ok = bool(ls >> name >> kind) && (kind == "host" || kind == "switch");
            s.nodes.emplace_back(name, kind == "host");
        }
        else if (kw == "link")
        {
            LinkSpec l;
            ok = bool(ls >> l.a >> l.b >> l.rateBps >> l.delayPs >> l.queueA >> l.queueB);
            s.links.push_back(l);
        }
        else if (kw == "flow")
        {
            FlowSpec f;
            std::string kind, hop;
            ok = bool(ls >> f.id >> f.src >> f.dst >> f.rateBps >> f.startPs >> f.stopPs >> kind) &&
                 (kind == "constant" || kind == "poisson");
            f.poisson = kind == "poisson";
            while (ls >> hop)
            {
                f.path.push_back(hop);
            }
            ok = ok && f.path.size() >= 3 && f.path.front() == f.src && f.path.back() == f.dst;
            s.flows.push_back(f);
        }
        else
        {
            ok = false;
        }
        if (!ok)
        {
            Fail(std::string(file) + ":" + std::to_string(lineNo) + ": cannot read \"" + line + "\"");
        }
    }
    // The IPv4 packet (F + 18 B) must fit the device MTU, or ns-3 would fragment it.
    if (s.durationPs <= 0 || s.frame < 64 || s.frame + WIRE_OVERHEAD - PPP_HEADER > DEVICE_MTU)
    {
        Fail("duration_ps must be > 0 and frame 64.." + std::to_string(DEVICE_MTU - 18));
    }
    return s;
}

// Per flow: what the source sent and what its destination received by the end of the run.
struct FlowCounters
{
    uint64_t sentFrames = 0;
    uint64_t deliveredFrames = 0;
};

std::vector<FlowCounters> g_counters;
uint64_t g_hops = 0;
uint64_t g_drops = 0;
Time g_end;

/** A UDP source: one frame at each arrival of a constant-rate or Poisson process, until stop. */
class FrameSource : public Application
{
  public:
    void Configure(uint32_t flow,
                   Ipv4Address dst,
                   uint16_t port,
                   uint32_t payload,
                   int64_t meanGapPs,
                   bool poisson,
                   int64_t stopPs)
    {
        m_flow = flow;
        m_dst = dst;
        m_port = port;
        m_payload = payload;
        m_meanGapPs = meanGapPs;
        m_poisson = poisson;
        m_stopPs = stopPs;
        if (poisson)
        {
            m_gap = CreateObject<ExponentialRandomVariable>();
            m_gap->SetAttribute("Mean", DoubleValue(double(meanGapPs)));
            m_gap->SetStream(flow);
        }
    }

  private:
    void StartApplication() override
    {
        m_socket = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
        m_socket->Connect(InetSocketAddress(m_dst, m_port));
        SendFrame();
    }

    void StopApplication() override
    {
        Simulator::Cancel(m_next);
    }

    void SendFrame()
    {
        if (Simulator::Now().GetPicoSeconds() >= m_stopPs)
        {
            return;
        }
        m_socket->Send(Create<Packet>(m_payload));
        g_counters[m_flow].sentFrames++;
        int64_t gap = m_meanGapPs;
        if (m_poisson)
        {
            // Rounded to the ps; a zero gap is a legal draw of the continuous process.
            gap = int64_t(m_gap->GetValue() + 0.5);
        }
        m_next = Simulator::Schedule(PicoSeconds(gap), &FrameSource::SendFrame, this);
    }

    uint32_t m_flow = 0;
    Ipv4Address m_dst;
    uint16_t m_port = 0;
    uint32_t m_payload = 0;
    int64_t m_meanGapPs = 0;
    bool m_poisson = false;
    int64_t m_stopPs = 0;
    Ptr<ExponentialRandomVariable> m_gap;
    Ptr<Socket> m_socket;
    EventId m_next;
};

void
Delivered(uint32_t flow, Ptr<Socket> socket)
{
    while (Ptr<Packet> p = socket->Recv())
    {
        if (Simulator::Now() <= g_end)
        {
            g_counters[flow].deliveredFrames++;
        }
    }
}

void
CountHop(Ptr<const Packet>)
{
    g_hops++;
}

void
CountDrop(Ptr<const Packet>)
{
    g_drops++;
}

} // namespace

int
main(int argc, char** argv)
{
    Time::SetResolution(Time::PS);
    if (argc != 2)
    {
        Fail("usage: dcbkit_ns3 SPEC");
    }
    const Spec spec = ReadSpec(argv[1]);
    RngSeedManager::SetSeed(spec.seed);
    RngSeedManager::SetRun(1);
    const uint32_t frame = spec.frame;
    const uint32_t wire = frame + WIRE_OVERHEAD;
    const uint32_t payload = frame + WIRE_OVERHEAD - PPP_HEADER - IP_UDP_HEADERS;

    std::map<std::string, Ptr<Node>> nodes;
    std::map<std::string, bool> isHost;
    NodeContainer all;
    for (const auto& [name, host] : spec.nodes)
    {
        if (nodes.count(name))
        {
            Fail("node " + name + " given twice");
        }
        Ptr<Node> n = CreateObject<Node>();
        nodes[name] = n;
        isHost[name] = host;
        all.Add(n);
    }
    auto nodeOf = [&](const std::string& name) {
        auto it = nodes.find(name);
        if (it == nodes.end())
        {
            Fail("unknown node " + name);
        }
        return it->second;
    };

    // Static routing only: no global routing, no list of protocols to consult per packet.
    Ipv4StaticRoutingHelper staticRouting;
    InternetStackHelper stack;
    stack.SetRoutingHelper(staticRouting);
    stack.Install(all);

    // (node, neighbour) -> the node's interface index toward it.
    std::map<std::pair<std::string, std::string>, uint32_t> ifaceTo;
    Ipv4AddressHelper linkAddresses("10.0.0.0", "255.255.255.252");
    for (const auto& l : spec.links)
    {
        // The device must serialise a frame in exactly dcbkit's time, (F + 20) x 8 / rate in whole ps.
        const uint64_t wireBits = uint64_t(wire) * 8;
        if ((wireBits * 1000000000000ull) % l.rateBps != 0 ||
            DataRate(l.rateBps).CalculateBytesTxTime(wire).GetPicoSeconds() !=
                int64_t(wireBits * 1000000000000ull / l.rateBps))
        {
            Fail("link " + l.a + " " + l.b + ": a " + std::to_string(wire) +
                 " B packet does not take a whole number of ps at " + std::to_string(l.rateBps) +
                 " bit/s in both simulators");
        }
        PointToPointHelper p2p;
        p2p.DisableFlowControl();
        p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate(l.rateBps)));
        p2p.SetDeviceAttribute("Mtu", UintegerValue(DEVICE_MTU));
        p2p.SetChannelAttribute("Delay", TimeValue(PicoSeconds(l.delayPs)));
        NetDeviceContainer devs = p2p.Install(nodeOf(l.a), nodeOf(l.b));
        const uint64_t limits[2] = {l.queueA, l.queueB};
        for (uint32_t end = 0; end < 2; end++)
        {
            Ptr<PointToPointNetDevice> dev = DynamicCast<PointToPointNetDevice>(devs.Get(end));
            const uint64_t packets = limits[end] == 0 ? HOST_QUEUE_PACKETS : limits[end] / frame;
            Ptr<Queue<Packet>> q = dev->GetQueue();
            q->SetMaxSize(QueueSize(QueueSizeUnit::BYTES, uint32_t(packets * (frame + WIRE_OVERHEAD))));
            q->TraceConnectWithoutContext("Drop", MakeCallback(&CountDrop));
            dev->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&CountHop));
        }
        Ipv4InterfaceContainer ifs = linkAddresses.Assign(devs);
        linkAddresses.NewNetwork();
        ifaceTo[{l.a, l.b}] = ifs.Get(0).second;
        ifaceTo[{l.b, l.a}] = ifs.Get(1).second;
    }
    // Nothing between IP and the device queue: no queue disc, no device-queue flow control.
    for (auto& [name, n] : nodes)
    {
        Ptr<TrafficControlLayer> tc = n->GetObject<TrafficControlLayer>();
        for (uint32_t d = 0; d < n->GetNDevices(); d++)
        {
            Ptr<NetDevice> dev = n->GetDevice(d);
            if (tc->GetRootQueueDiscOnDevice(dev) || dev->GetObject<NetDeviceQueueInterface>())
            {
                Fail("a queue disc or device flow control is installed on " + name);
            }
        }
    }

    // Hosts send everything out of their one interface.
    for (const auto& [name, n] : nodes)
    {
        if (isHost[name])
        {
            Ptr<Ipv4StaticRouting> r = staticRouting.GetStaticRouting(n->GetObject<Ipv4>());
            r->SetDefaultRoute(Ipv4Address("0.0.0.0"), 1);
        }
    }

    g_counters.assign(spec.flows.size(), FlowCounters());
    g_end = PicoSeconds(spec.durationPs);
    std::vector<Ptr<Socket>> sinks;
    for (uint32_t i = 0; i < spec.flows.size(); i++)
    {
        const FlowSpec& f = spec.flows[i];
        if (f.id != i)
        {
            Fail("flow ids must be 0, 1, 2, ... in order");
        }
        nodeOf(f.src);
        nodeOf(f.dst);
        if (!isHost[f.src] || !isHost[f.dst])
        {
            Fail("flow " + std::to_string(i) + ": its ends must be hosts");
        }
        // The flow's own destination address (11.0.0.0/8), owned by the destination host.
        const Ipv4Address flowAddr(0x0B000000u + 1 + i);
        Ptr<Ipv4> dstIp = nodeOf(f.dst)->GetObject<Ipv4>();
        dstIp->AddAddress(1, Ipv4InterfaceAddress(flowAddr, Ipv4Mask("255.255.255.255")));
        // A host route at every switch of the pinned path, out of the interface to the next node.
        for (size_t h = 1; h + 1 < f.path.size(); h++)
        {
            auto it = ifaceTo.find({f.path[h], f.path[h + 1]});
            if (it == ifaceTo.end() || isHost[f.path[h]])
            {
                Fail("flow " + std::to_string(i) + ": no link " + f.path[h] + " -> " + f.path[h + 1]);
            }
            Ptr<Ipv4StaticRouting> r =
                staticRouting.GetStaticRouting(nodeOf(f.path[h])->GetObject<Ipv4>());
            r->AddHostRouteTo(flowAddr, it->second);
        }
        if (!ifaceTo.count({f.path[0], f.path[1]}))
        {
            Fail("flow " + std::to_string(i) + ": no link " + f.path[0] + " -> " + f.path[1]);
        }
        const uint16_t port = uint16_t(1000 + i);
        Ptr<Socket> sink = Socket::CreateSocket(nodeOf(f.dst), UdpSocketFactory::GetTypeId());
        sink->Bind(InetSocketAddress(Ipv4Address::GetAny(), port));
        sink->SetRecvCallback(MakeBoundCallback(&Delivered, i));
        sinks.push_back(sink);

        // dcbkit's frame time at the offered rate, whole ps (host/sim and assembly/sim/nic.ts).
        const int64_t gapPs = int64_t((uint64_t(wire) * 8000000000000ull) / f.rateBps);
        Ptr<FrameSource> app = CreateObject<FrameSource>();
        app->Configure(i, flowAddr, port, payload, gapPs, f.poisson, std::min(f.stopPs, spec.durationPs));
        nodeOf(f.src)->AddApplication(app);
        app->SetStartTime(PicoSeconds(f.startPs));
    }

    // Events at exactly T still run (dcbkit counts deliveries at <= T); Stop's own event at T + 1 ps
    // was scheduled before any other event of that time.
    Simulator::Stop(PicoSeconds(spec.durationPs + 1));
    const auto wall0 = std::chrono::steady_clock::now();
    Simulator::Run();
    const double wallS =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    Simulator::Destroy();

    std::cout << "{\"frame\":" << frame << ",\"packet_hops\":" << g_hops << ",\"drops\":" << g_drops
              << ",\"wall_s\":" << wallS << ",\"flows\":[";
    for (uint32_t i = 0; i < g_counters.size(); i++)
    {
        const FlowCounters& c = g_counters[i];
        std::cout << (i ? "," : "") << "{\"id\":" << i << ",\"sent_frames\":" << c.sentFrames
                  << ",\"delivered_frames\":" << c.deliveredFrames
                  << ",\"delivered_bytes\":" << c.deliveredFrames * frame << "}";
    }
    std::cout << "]}" << std::endl;
    return 0;
}
