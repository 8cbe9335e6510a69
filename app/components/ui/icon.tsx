import {
  Award,
  Baby,
  BadgeCheck,
  BookOpen,
  Briefcase,
  CalendarCheck,
  Camera,
  Clapperboard,
  Clock,
  Gift,
  GraduationCap,
  Heart,
  HeartHandshake,
  IdCard,
  Leaf,
  Lock,
  Medal,
  Newspaper,
  PartyPopper,
  Shield,
  ShoppingBag,
  Smile,
  Sparkles,
  Star,
  Trophy,
  UserRound,
  Users,
  type LucideIcon,
} from "lucide-react";
import type { IconName } from "~/content/schemas";

/**
 * The icons the owner can choose for a card (ICON_NAMES), imported one by one so the bundle holds these and
 * no other of lucide's icons.
 */
const icons: Record<IconName, LucideIcon> = {
  Award,
  Baby,
  BadgeCheck,
  BookOpen,
  Briefcase,
  CalendarCheck,
  Camera,
  Clapperboard,
  Clock,
  Gift,
  GraduationCap,
  Heart,
  HeartHandshake,
  IdCard,
  Leaf,
  Lock,
  Medal,
  Newspaper,
  PartyPopper,
  Shield,
  ShoppingBag,
  Smile,
  Sparkles,
  Star,
  Trophy,
  UserRound,
  Users,
};

/** A decorative icon chosen by its name (the card's title says what it means). */
export function Icon({ name, className }: { name: IconName; className?: string }) {
  const Drawn = icons[name];
  return <Drawn aria-hidden="true" className={className} />;
}
