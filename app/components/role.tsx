'use client';
import { createContext, useContext, type ReactNode } from 'react';
import { may, type MemberRole, type Permission } from '@/server/accounts/permissions';

const RoleContext = createContext<MemberRole>('accountant');

/** The signed-in member's role, so pages hide what the server would refuse (the server's refusal is the rule). */
export function RoleProvider({ role, children }: { role: MemberRole; children: ReactNode }) {
  return <RoleContext.Provider value={role}>{children}</RoleContext.Provider>;
}

export const useMay = (permission: Permission): boolean => may(useContext(RoleContext), permission);
